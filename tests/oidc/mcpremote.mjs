// mcp-remote (the version package-lock.json pins), the bridge that gives
// stdio-only clients such as Claude Desktop a remote server, signs in with
// the test's OpenID provider on its own: it discovers the provider from
// the gateway, registers, opens "the browser" (browser.mjs, through
// $BROWSER) at the authorization URL with PKCE and the endpoint as
// resource, and takes the code at its callback on localhost. The
// TypeScript SDK's client then reads through it over stdio, following the
// people's visits of the plan the Go test (tsclient_test.go) gives in
// OIDC_E2E_PLAN.
//
// Run by the Go test: node --test mcpremote.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const plan = JSON.parse(process.env.OIDC_E2E_PLAN ?? 'null');
if (!plan) throw new Error('mcpremote.mjs is run by the Go test of tests/oidc (bash tests/oidc/run.sh), which gives it OIDC_E2E_PLAN');

/** Starts mcp-remote for the visit's endpoint, signed in as its person. */
async function connect(visit, configDir) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(here, 'node_modules', 'mcp-remote', 'dist', 'proxy.js'), visit.endpoint, '--transport', 'http-only'],
    env: {
      ...process.env,
      BROWSER: path.join(here, 'browser.mjs'),
      OIDC_E2E_LOGIN: visit.login,
      OIDC_E2E_PASSWORD: visit.password,
      MCP_REMOTE_CONFIG_DIR: configDir,
    },
    stderr: 'pipe',
  });
  let log = '';
  transport.stderr?.on('data', (b) => { log += b; });
  const client = new Client({ name: 'oidc-e2e-mcp-remote', version: '0' });
  try {
    await client.connect(transport);
  } catch (err) {
    throw new Error(`${err.message}\nmcp-remote's log:\n${log.slice(-4000)}`);
  }
  return client;
}

for (const visit of plan.visits.filter((v) => v.login && v.rule)) {
  test(visit.name, async () => {
    const configDir = mkdtempSync(path.join(tmpdir(), 'oidc-e2e-mcp-remote-'));
    const client = await connect(visit, configDir);
    try {
      for (const args of visit.reads ?? []) {
        const res = await client.callTool({ name: 'dagu_read', arguments: JSON.parse(args) });
        assert.ok(!res.isError, `${args}: ${JSON.stringify(res.structuredContent)}`);
      }
      for (const args of visit.refused ?? []) {
        const res = await client.callTool({ name: 'dagu_read', arguments: JSON.parse(args) });
        const got = JSON.stringify(res.structuredContent);
        assert.ok(res.isError && got.includes('"code":"unauthorized"') && got.includes(`access rule ${visit.rule}`),
          `${args}: ${got}; want unauthorized naming the rule ${visit.rule}`);
      }
    } finally {
      await client.close();
      rmSync(configDir, { recursive: true, force: true });
    }
  });
}
