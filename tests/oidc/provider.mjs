// The OpenID provider of the sign-in tests: npm's oidc-provider (the
// version package-lock.json pins), a certified implementation, set up as a
// team's identity provider would be for the gateway:
//
//   - dynamic client registration (RFC 7591), open, so MCP clients
//     register themselves;
//   - resource indicators (RFC 8707): an access token asked for a
//     gateway endpoint (any http://127.0.0.1:<port> URL whose path ends in
//     /mcp) is a JWT whose aud is that endpoint, with the resource's scope
//     dagu.read;
//   - authorization code with PKCE (S256, required of every client);
//   - a groups claim (and email) in the access token;
//   - client credentials for a service account, ci-reports.
//
// People sign in through a login form and a consent form this file serves
// at /interaction/<uid>, which the tests fill in over plain HTTP: no
// browser. The accounts and the service account's secret, groups and
// default audience come from the environment the test setup gives
// (OIDC_ACCOUNTS, OIDC_CI_SECRET, OIDC_CI_GROUPS, OIDC_CI_AUDIENCE); only
// loopback addresses are used.
//
// GET /test/jwks-fetches answers how many times its JWKS was fetched, so
// the test can count the gateway's fetches.
//
// Usage: node provider.mjs; it listens on 127.0.0.1:$OIDC_PORT (0 or
// unset: a free port) and prints one JSON line, {"issuer": URL}, once it
// accepts connections. SIGTERM stops it.

import { createServer } from 'node:http';
import { generateKeyPairSync, randomBytes, timingSafeEqual } from 'node:crypto';
import Provider, { errors } from 'oidc-provider';

/** The scope of the gateway's resource, and the service account's name. */
const resourceScope = 'dagu.read';
const serviceAccount = 'ci-reports';

/**
 * accounts: username -> { password, email, groups }, from OIDC_ACCOUNTS
 * (JSON). The service account's groups are OIDC_CI_GROUPS (JSON, default
 * []).
 */
const accounts = JSON.parse(process.env.OIDC_ACCOUNTS ?? '{}');
const ciSecret = process.env.OIDC_CI_SECRET;
const ciGroups = JSON.parse(process.env.OIDC_CI_GROUPS ?? '[]');
const ciAudience = process.env.OIDC_CI_AUDIENCE;
if (!ciSecret || ciSecret.length < 32) {
  console.error('provider.mjs: OIDC_CI_SECRET must hold the service account secret (32 characters or more)');
  process.exit(2);
}

/**
 * A gateway MCP endpoint on a loopback address: what tokens are for; and
 * the service account's own audience (OIDC_CI_AUDIENCE), for a token
 * request that names no resource, as an IdP that ignores RFC 8707 gives
 * its configured audience (Entra ID's api://...).
 */
const gatewayResource = /^http:\/\/127\.0\.0\.1:\d+(\/dagu\/[a-z0-9-]+)?\/mcp$/;
const knownResource = (resource) => gatewayResource.test(resource) || (ciAudience && resource === ciAudience);

/** A signing key pair as a private JWK with its kid and algorithm. */
function signingKey(kid, alg, type, options) {
  const { privateKey } = generateKeyPairSync(type, options);
  return { ...privateKey.export({ format: 'jwk' }), kid, alg, use: 'sig' };
}

const keys = [
  signingKey('rs-1', 'RS256', 'rsa', { modulusLength: 2048 }),
  signingKey('es-1', 'ES256', 'ec', { namedCurve: 'P-256' }),
];

/** The claims an access token carries about its subject, besides sub. */
function subjectClaims(token) {
  if (token.kind === 'ClientCredentials') {
    return token.clientId === serviceAccount ? { groups: ciGroups } : undefined;
  }
  const account = accounts[token.accountId];
  return account ? { email: account.email, groups: account.groups } : undefined;
}

/** The provider's configuration; issuer is its URL. */
function configuration() {
  return {
    clients: [{
      client_id: serviceAccount,
      client_secret: ciSecret,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_basic',
    }],
    jwks: { keys },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    scopes: ['openid', 'email', 'groups', 'offline_access', resourceScope],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], groups: ['groups'] },
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx, client, oneOf) => oneOf ?? (client.clientId === serviceAccount ? ciAudience : undefined),
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          if (!knownResource(resource)) throw new errors.InvalidTarget();
          return {
            scope: resourceScope,
            audience: resource,
            accessTokenTTL: 10 * 60,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'ES256' } },
          };
        },
      },
    },
    extraTokenClaims: (_ctx, token) => subjectClaims(token),
    findAccount: (_ctx, id) => {
      const account = accounts[id];
      if (!account) return undefined;
      return {
        accountId: id,
        claims: () => ({ sub: id, email: account.email, email_verified: true, groups: account.groups }),
      };
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    ttl: {
      AccessToken: 10 * 60,
      AuthorizationCode: 60,
      ClientCredentials: 10 * 60,
      Grant: 60 * 60,
      IdToken: 10 * 60,
      Interaction: 10 * 60,
      RefreshToken: 60 * 60,
      Session: 60 * 60,
    },
    renderError: (ctx, out) => {
      ctx.type = 'text/plain';
      ctx.body = `${out.error}: ${out.error_description ?? ''}\n`;
    },
  };
}

/** Escapes text for HTML. */
function html(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A page with one form posting to action. */
function formPage(title, action, fields) {
  return `<!doctype html><title>${html(title)}</title><h1>${html(title)}</h1>` +
    `<form method="post" action="${html(action)}">${fields}<button type="submit">Continue</button></form>\n`;
}

/** Reads a urlencoded body of at most 4 KiB. */
async function formBody(req) {
  let body = '';
  for await (const chunk of req) {
    body += chunk;
    if (body.length > 4096) throw new Error('body too large');
  }
  return new URLSearchParams(body);
}

/** Compares a password in constant time. */
function passwordMatches(account, given) {
  const a = Buffer.from(account?.password ?? '');
  const b = Buffer.from(given ?? '');
  return account !== undefined && a.length === b.length && timingSafeEqual(a, b);
}

/** Grants what the consent prompt found missing, and returns the grant's id. */
async function grantConsent(provider, details) {
  const { prompt: { details: missing }, params, session, grantId } = details;
  const grant = grantId
    ? await provider.Grant.find(grantId)
    : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
    grant.addResourceScope(indicator, scopes.join(' '));
  }
  return grant.save();
}

/** Serves /interaction/<uid>: the login form, then the consent form. */
async function interaction(provider, req, res) {
  const url = new URL(req.url, 'http://127.0.0.1');
  const [, , uid, step] = url.pathname.split('/');
  const details = await provider.interactionDetails(req, res);
  if (details.uid !== uid) throw new errors.SessionNotFound('interaction mismatch');
  const prompt = details.prompt.name;
  if (req.method === 'GET') {
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    res.end(prompt === 'login'
      ? formPage('Sign in', `/interaction/${uid}/login`,
        '<input name="login" autocomplete="username"><input name="password" type="password">')
      : formPage(`Allow ${details.params.client_id} to read Dagu?`, `/interaction/${uid}/confirm`, ''));
    return;
  }
  const form = await formBody(req);
  if (step === 'login' && prompt === 'login') {
    const login = form.get('login');
    if (!passwordMatches(accounts[login], form.get('password'))) {
      res.statusCode = 401;
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end(formPage('Wrong username or password', `/interaction/${uid}/login`,
        '<input name="login"><input name="password" type="password">'));
      return;
    }
    await provider.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false });
    return;
  }
  if (step === 'confirm' && prompt === 'consent') {
    const grantId = await grantConsent(provider, details);
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    return;
  }
  res.statusCode = 400;
  res.end('unexpected step\n');
}

/** Starts the provider and prints its issuer. */
function main() {
  const server = createServer();
  server.listen(Number(process.env.OIDC_PORT ?? 0), '127.0.0.1', () => {
    const issuer = `http://127.0.0.1:${server.address().port}`;
    const provider = new Provider(issuer, configuration());
    const callback = provider.callback();
    let jwksFetches = 0;
    server.on('request', (req, res) => {
      if (req.url === '/jwks') jwksFetches++;
      if (req.url === '/test/jwks-fetches') {
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ fetches: jwksFetches }));
        return;
      }
      if (!req.url.startsWith('/interaction/')) {
        callback(req, res);
        return;
      }
      interaction(provider, req, res).catch((err) => {
        if (!res.headersSent) res.statusCode = 400;
        res.end(`interaction failed: ${err.message}\n`);
      });
    });
    console.log(JSON.stringify({ issuer }));
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

main();
