// Both MCP protocol eras with real clients (issue 39): the TypeScript SDK
// 2.x (@modelcontextprotocol/client) pinned to 2026-07-28, negotiating
// ('auto') and in its default legacy mode; the 1.x SDK
// (@modelcontextprotocol/sdk), which speaks 2025-11-25; and the mcp-remote
// bridge, which a stdio host (here the 1.x SDK over stdio) uses to reach
// the gateway over HTTP, with --protocol auto (it then speaks 2026-07-28
// upstream) and in its default legacy mode. Each reads every target family
// and one resource per family against one `gateway demo` with an inbound
// token, and checks what the application receives. (The go-sdk client's
// test of both eras is gosdk_test.go.)

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { Client as ClientV2, StreamableHTTPClientTransport as HTTPV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HTTPV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { LEGACY, MODERN, families, readFamilyResource, readMissingResource, resources } from './families.mjs';
import { buildGateway, cleanEnv, secret, startDemo } from './gateway.mjs';

/** The version package.json pins a package to. */
const pinned = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')).dependencies;
const versionOf = (pkg) => pinned[pkg];

const token = secret('interop-token-');

let gateway; // { bin, cleanup }
let demo; // { mcpUrl, daguUrl, stop }
let bridgeHome; // mcp-remote's config directory, thrown away at the end

before(async () => {
  gateway = await buildGateway();
  demo = await startDemo(gateway.bin, [], { env: { GATEWAY_AUTH_TOKENS: token } });
  bridgeHome = await mkdtemp(path.join(tmpdir(), 'gateway-mcp-remote-'));
}, { timeout: 120_000 });

after(async () => {
  await demo?.stop();
  await gateway?.cleanup();
  if (bridgeHome) await rm(bridgeHome, { recursive: true, force: true });
});

const headers = () => ({ Authorization: `Bearer ${token}` });

/** An SDK 2.x client in a negotiation mode; the era it must end in. */
function sdk2(mode) {
  return async () => {
    const client = new ClientV2({ name: 'interop-v2', version: '0' }, { versionNegotiation: { mode } });
    await client.connect(new HTTPV2(new URL(demo.mcpUrl), { requestInit: { headers: headers() } }));
    return { client, era: client.getNegotiatedProtocolVersion() };
  };
}

/** The SDK 1.x client over Streamable HTTP. */
async function sdk1() {
  const client = new ClientV1({ name: 'interop-v1', version: '0' });
  const transport = new HTTPV1(new URL(demo.mcpUrl), { requestInit: { headers: headers() } });
  await client.connect(transport);
  return { client, era: transport.protocolVersion };
}

/**
 * The SDK 1.x client over stdio to mcp-remote, which reaches the gateway
 * over HTTP with the token in a header (in its environment, as the README's
 * Claude Desktop recipe has it). protocol is mcp-remote's --protocol.
 * The era is the one the gateway answers mcp-remote in, which the client
 * cannot see (mcp-remote answers its handshake itself): the code of a
 * missing resource and the cache hints, which differ by era, show it.
 */
function bridge(protocol) {
  return async () => {
    const proxy = fileURLToPath(new URL('./node_modules/mcp-remote/dist/proxy.js', import.meta.url));
    const args = [proxy, demo.mcpUrl, '--header', 'Authorization:${AUTH_HEADER}'];
    if (protocol) args.push('--protocol', protocol);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args,
      env: cleanEnv({ AUTH_HEADER: `Bearer ${token}`, MCP_REMOTE_CONFIG_DIR: bridgeHome }),
      stderr: 'pipe',
    });
    const client = new ClientV1({ name: 'interop-bridge', version: '0' });
    await client.connect(transport);
    return { client };
  };
}

const clients = [
  { name: `@modelcontextprotocol/client ${versionOf('@modelcontextprotocol/client')} pinned to ${MODERN}`, era: MODERN, connect: sdk2({ pin: MODERN }) },
  { name: `@modelcontextprotocol/client ${versionOf('@modelcontextprotocol/client')} 'auto'`, era: MODERN, connect: sdk2('auto') },
  // In its legacy mode the 2.x SDK turns a -32002 carrying a uri into its
  // own ResourceNotFoundError: -32602, data { uri }, the gateway's message;
  // the contract's error object does not reach the application.
  { name: `@modelcontextprotocol/client ${versionOf('@modelcontextprotocol/client')} 'legacy'`, era: LEGACY, connect: sdk2('legacy'),
    missing: { code: -32602, contract: false } },
  { name: `@modelcontextprotocol/sdk ${versionOf('@modelcontextprotocol/sdk')}`, era: LEGACY, connect: sdk1 },
  { name: `mcp-remote ${versionOf('mcp-remote')} --protocol auto (SDK 1.x over stdio)`, era: MODERN, connect: bridge('auto'), bridge: true },
  { name: `mcp-remote ${versionOf('mcp-remote')} legacy (SDK 1.x over stdio)`, era: LEGACY, connect: bridge(''), bridge: true },
];

for (const c of clients) {
  describe(`${c.name}, ${c.era}`, () => {
    let session; // { client, era }
    before(async () => { session = await c.connect(); }, { timeout: 60_000 });
    after(async () => { await session?.client.close(); });

    if (!c.bridge) it(`speaks ${c.era}`, () => assert.equal(session.era, c.era));
    for (const family of Object.keys(families)) {
      it(`reads the ${family} family`, () => families[family](session.client));
      if (resources[family]) {
        it(`reads a ${family} resource`, () => readFamilyResource(session.client, family, c.era));
      }
    }
    it('reads a missing resource as its era says', () => readMissingResource(session.client, c.era, c.missing));
  });
}
