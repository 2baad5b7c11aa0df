// The TypeScript SDK's MCP client signs in with the test's OpenID provider
// and reads through the gateway's access rules, following the plan the Go
// test (tsclient_test.go) gives in OIDC_E2E_PLAN: the same visits the
// go-sdk client makes. A person's client is the SDK's OAuth client
// (discovery, dynamic client registration, authorization code with PKCE
// and the endpoint as resource) with an in-memory OAuthClientProvider,
// the login and consent forms filled in by login.mjs; the service account
// is the SDK's ClientCredentialsProvider.
//
// Run by the Go test: node --test tsclient.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { signIn } from './login.mjs';

const plan = JSON.parse(process.env.OIDC_E2E_PLAN ?? 'null');
if (!plan) throw new Error('tsclient.mjs is run by the Go test of tests/oidc (bash tests/oidc/run.sh), which gives it OIDC_E2E_PLAN');

/** A person's MCP client, keeping what it learns in memory. */
class PersonClient {
  constructor(redirectUrl) {
    this.redirect = redirectUrl;
    this.signIns = 0;
  }

  get redirectUrl() { return this.redirect; }

  get clientMetadata() {
    return {
      client_name: 'oidc-e2e-ts',
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation() { return this.client; }

  saveClientInformation(info) { this.client = info; }

  tokens() { return this.saved; }

  saveTokens(tokens) { this.saved = tokens; }

  redirectToAuthorization(url) {
    this.authorizationUrl = url;
    this.signIns++;
  }

  saveCodeVerifier(verifier) { this.verifier = verifier; }

  codeVerifier() { return this.verifier; }
}

/** Connects a client to the endpoint with the auth provider. */
async function connect(endpoint, authProvider) {
  const client = new Client({ name: 'oidc-e2e-ts', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint), { authProvider }));
  return client;
}

/**
 * Signs in as the visit's person: the first connection stops at the
 * redirect to the provider, the person signs in there, the SDK exchanges
 * the code, and the second connection carries the token.
 */
async function connectAsPerson(visit) {
  const person = new PersonClient(plan.redirectUri);
  await assert.rejects(connect(visit.endpoint, person), UnauthorizedError);
  assert.equal(person.signIns, 1);
  const back = await signIn(person.authorizationUrl, person.redirectUrl, visit.login, visit.password);
  assert.equal(back.searchParams.get('iss'), plan.issuer);
  assert.equal(person.authorizationUrl.searchParams.get('resource'), visit.endpoint);
  assert.equal(person.authorizationUrl.searchParams.get('code_challenge_method'), 'S256');
  const transport = new StreamableHTTPClientTransport(new URL(visit.endpoint), { authProvider: person });
  await transport.finishAuth(back.searchParams.get('code'));
  return connect(visit.endpoint, person);
}

/** Connects as the visit's caller. */
function connectAs(visit) {
  if (visit.login) return connectAsPerson(visit);
  // The SDK asks a client-credentials token for the scope its options give
  // (not the metadata's): the one the gateway requires.
  return connect(visit.endpoint, new ClientCredentialsProvider({ clientId: plan.serviceAccount, clientSecret: plan.secret, scope: plan.scope }));
}

/** Checks the visit's targets, reads and refusals through the client. */
async function checkVisit(client, visit) {
  if (visit.targets) {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'dagu_read');
    assert.deepEqual(tool.inputSchema.properties.target.enum, visit.targets);
  }
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
  for (const uri of visit.refusedUris ?? []) {
    await assert.rejects(client.readResource({ uri }), (err) => {
      assert.match(err.message, new RegExp(`access rule ${visit.rule}`));
      assert.equal(err.data?.code, 'unauthorized');
      return true;
    });
  }
}

plan.visits.forEach((visit) => {
  test(visit.name, async () => {
    if (!visit.rule) {
      await assert.rejects(connectAs(visit), (err) => {
        assert.match(String(err), /403|no rule/);
        return true;
      });
      return;
    }
    const client = await connectAs(visit);
    try {
      await checkVisit(client, visit);
    } finally {
      await client.close();
    }
  });
});
