#!/usr/bin/env node
// The browser mcp-remote opens, for the sign-in tests: mcp-remote's
// opener runs $BROWSER with the authorization URL, and this script signs
// in there as the person OIDC_E2E_LOGIN (password OIDC_E2E_PASSWORD) with
// login.mjs, then follows the redirect to mcp-remote's own callback server
// on localhost, as a browser would, which hands mcp-remote the code.

import { signIn } from './login.mjs';

const back = await signIn(process.argv[2], 'http://localhost:', process.env.OIDC_E2E_LOGIN, process.env.OIDC_E2E_PASSWORD);
const res = await fetch(back);
if (!res.ok) {
  console.error(`browser.mjs: mcp-remote's callback answered ${res.status}`);
  process.exit(1);
}
