// Interoperability test: the official MCP TypeScript SDK, a third-party
// client, against the gateway binary built from this checkout. One
// `gateway demo` (with an inbound token and a known demo Dagu key) serves
// Streamable HTTP; `gateway stdio` is started by the SDK against the same
// demo Dagu. Both transports get the same checks.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import {
  auth,
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { buildGateway, secret, startDemo } from './gateway.mjs';

const token = secret('interop-token-');
const daguKey = secret('dagu_interop_');

let gateway; // { bin, cleanup }
let demo; // { mcpUrl, daguUrl, stop }

before(async () => {
  gateway = await buildGateway();
  demo = await startDemo(gateway.bin, [], { env: { GATEWAY_AUTH_TOKENS: token, DAGU_API_KEY: daguKey } });
}, { timeout: 120_000 });

after(async () => {
  await demo?.stop();
  await gateway?.cleanup();
});

/** How the SDK reaches the gateway, by transport name. */
const transports = {
  'Streamable HTTP': () => new StreamableHTTPClientTransport(new URL(demo.mcpUrl), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  }),
  stdio: () => new StdioClientTransport({
    command: gateway.bin,
    args: ['stdio', '--log-level', 'error'],
    env: { DAGU_URL: demo.daguUrl, DAGU_API_KEY: daguKey },
    stderr: 'pipe',
  }),
};

/** dagu_read calls and what their structured content must hold. */
const toolCalls = [
  {
    args: { target: 'dags' },
    check: (sc) => assert.ok(sc.data.items.some((d) => d.name === 'failing_job'), 'failing_job is listed'),
  },
  {
    args: { target: 'run', name: 'failing_job', dagRunId: 'latest' },
    check: (sc) => {
      assert.equal(sc.data.name, 'failing_job');
      assert.equal(sc.data.statusLabel, 'failed');
      assert.ok(sc.data.steps.length > 0, 'the run has steps');
    },
  },
  {
    args: { target: 'step_log', name: 'failing_job', dagRunId: 'latest', stepName: 'explode' },
    check: (sc) => assert.match(sc.data.stderrContent, /disk full/),
  },
  {
    args: { target: 'reference', name: 'read-tool' },
    check: (sc) => assert.match(sc.data.text, /dagu:\/\/runs/),
  },
  {
    args: { uri: 'dagu://runs/failing_job/latest' },
    check: (sc) => assert.equal(sc.data.name, 'failing_job'),
  },
];

/** resources/read calls: the URI and the MIME type of its one content. */
const resourceReads = [
  { uri: 'dagu://dags', mimeType: 'application/json', check: (text) => assert.ok(JSON.parse(text).items.length > 0) },
  { uri: 'dagu://runs/failing_job/latest', mimeType: 'application/json', check: (text) => assert.equal(JSON.parse(text).name, 'failing_job') },
  { uri: 'dagu://reference/read-tool', mimeType: 'text/markdown', check: (text) => assert.match(text, /^# /) },
];

for (const [transportName, makeTransport] of Object.entries(transports)) {
  describe(`TypeScript SDK over ${transportName}`, () => {
    let client;
    let transport;
    let stderr = '';

    before(async () => {
      transport = makeTransport();
      transport.stderr?.on('data', (b) => { stderr += b; });
      client = new Client({ name: 'dagu-mcp-gateway-interop', version: '0.0.0' });
      await client.connect(transport);
    }, { timeout: 15_000 });

    after(async () => {
      await client?.close();
      if (stderr.trim() !== '') console.error(`gateway ${transportName} stderr:\n${stderr}`);
    });

    it('initializes without promising list_changed notifications', () => {
      const caps = client.getServerCapabilities();
      assert.ok(caps.tools, 'tools advertised');
      for (const name of ['tools', 'resources', 'prompts']) {
        assert.ok(!caps[name]?.listChanged, `${name}.listChanged is not advertised: ${JSON.stringify(caps)}`);
      }
      assert.equal(client.getServerVersion().name, 'dagu-mcp-gateway');
      assert.match(client.getInstructions() ?? '', /dagu_read/);
    });

    it('lists dagu_read as a read-only tool', async () => {
      const { tools } = await client.listTools();
      const tool = tools.find((t) => t.name === 'dagu_read');
      assert.ok(tool, `dagu_read listed: ${tools.map((t) => t.name)}`);
      assert.equal(tool.annotations?.readOnlyHint, true);
      assert.equal(tool.inputSchema.type, 'object');
    });

    for (const { args, check } of toolCalls) {
      it(`calls dagu_read ${JSON.stringify(args)}`, async () => {
        // The SDK validates structuredContent against the tool's
        // outputSchema, when it has one, on every call.
        const res = await client.callTool({ name: 'dagu_read', arguments: args });
        assert.ok(!res.isError, `isError: ${JSON.stringify(res.structuredContent)}`);
        assert.ok(res.content.length > 0, 'content is not empty');
        check(res.structuredContent);
      });
    }

    it('answers bad input with isError and invalid_tool_input', async () => {
      const res = await client.callTool({ name: 'dagu_read', arguments: { target: 'run' } });
      assert.equal(res.isError, true);
      assert.equal(res.structuredContent.code, 'invalid_tool_input');
      assert.match(res.content[0].text, /dagRunId/);
    });

    it('lists resource templates for the dagu:// shapes', async () => {
      const { resourceTemplates } = await client.listResourceTemplates();
      const templates = resourceTemplates.map((t) => t.uriTemplate);
      for (const want of ['dagu://reference/{topic}', 'dagu://runs/{name}/{dagRunId}']) {
        assert.ok(templates.includes(want), `${want} in ${templates.join(', ')}`);
      }
    });

    it('lists resources and prompts', async () => {
      const { resources } = await client.listResources();
      assert.ok(resources.some((r) => r.uri === 'dagu://reference/read-tool'), 'dagu://reference/read-tool listed');
      const { prompts } = await client.listPrompts();
      assert.ok(prompts.length > 0, 'at least one prompt');
      const prompt = prompts[0];
      const args = Object.fromEntries((prompt.arguments ?? []).filter((a) => a.required).map((a) => [a.name, 'failing_job']));
      const got = await client.getPrompt({ name: prompt.name, arguments: args });
      assert.ok(got.messages.length > 0, `prompt ${prompt.name} has messages`);
    });

    for (const { uri, mimeType, check } of resourceReads) {
      it(`reads ${uri}`, async () => {
        const { contents } = await client.readResource({ uri });
        assert.equal(contents.length, 1);
        assert.equal(contents[0].uri, uri);
        assert.equal(contents[0].mimeType, mimeType);
        check(contents[0].text);
      });
    }

    it('follows every resource link of a run', async () => {
      const res = await client.callTool({ name: 'dagu_read', arguments: { target: 'run', name: 'failing_job', dagRunId: 'latest' } });
      const links = res.content.filter((c) => c.type === 'resource_link');
      assert.ok(links.length > 0, 'the run answer links somewhere');
      for (const link of links) {
        const { contents } = await client.readResource({ uri: link.uri });
        assert.ok(contents[0].text.length > 0, `${link.uri} has content`);
      }
    });

    it('answers an unknown run with the contract error in the JSON-RPC error', async () => {
      // -32002 for a missing resource in MCP 2025-11-25, which this SDK
      // speaks (-32602 from 2026-07-28: eras.test.mjs); data is the
      // contract's error object.
      await assert.rejects(client.readResource({ uri: 'dagu://runs/failing_job/no_such_run' }), (err) => {
        assert.equal(err.code, -32002, `code ${err.code}: ${err.message}`);
        assert.equal(err.data?.code, 'resource_not_found', JSON.stringify(err.data));
        assert.equal(err.data?.uri, 'dagu://runs/failing_job/no_such_run');
        return true;
      });
    });
  });
}

describe('a client without the token', () => {
  it('gets a 401 whose body says how to configure the token', async () => {
    const client = new Client({ name: 'dagu-mcp-gateway-interop', version: '0.0.0' });
    await assert.rejects(client.connect(new StreamableHTTPClientTransport(new URL(demo.mcpUrl))), (err) => {
      assert.equal(err.code, 401, err.message);
      assert.match(err.message, /Authorization: Bearer <token>/);
      return true;
    });
  });

  it('finds RFC 9728 metadata with the SDK and no authorization server', async () => {
    const res = await fetch(demo.mcpUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(res.status, 401);
    const { resourceMetadataUrl } = extractWWWAuthenticateParams(res);
    assert.equal(resourceMetadataUrl?.href, new URL('/.well-known/oauth-protected-resource', demo.mcpUrl).href);
    // From the challenge, and by path-aware discovery from the /mcp URL alone.
    for (const opts of [{ resourceMetadataUrl }, undefined]) {
      const metadata = await discoverOAuthProtectedResourceMetadata(demo.mcpUrl, opts);
      assert.equal(metadata.resource, demo.mcpUrl);
      assert.deepEqual(metadata.bearer_methods_supported, ['header']);
      assert.ok(!metadata.authorization_servers?.length, 'no authorization server');
    }
  });

  it('never sends an OAuth client to a login page', async () => {
    // What mcp-remote and other OAuth clients run on a 401: the SDK's auth().
    const fetched = [];
    const recordingFetch = (url, init) => {
      fetched.push(`${init?.method ?? 'GET'} ${new URL(url).pathname}`);
      return fetch(url, init);
    };
    let redirected = false;
    let tokensSaved = false;
    const provider = {
      redirectUrl: 'http://127.0.0.1:1/callback',
      clientMetadata: { client_name: 'interop', redirect_uris: ['http://127.0.0.1:1/callback'] },
      clientInformation: () => undefined,
      saveClientInformation: () => {},
      tokens: () => undefined,
      saveTokens: () => { tokensSaved = true; },
      redirectToAuthorization: () => { redirected = true; },
      saveCodeVerifier: () => {},
      codeVerifier: () => '',
    };
    // With no authorization server in the metadata, the SDK falls back to
    // the gateway's origin and tries dynamic client registration there; the
    // gateway refuses it with an OAuth error that says what to do.
    await assert.rejects(auth(provider, { serverUrl: demo.mcpUrl, fetchFn: recordingFetch }), (err) => {
      assert.match(err.message, /does not use OAuth.*Authorization: Bearer <token>/, err.message);
      return true;
    });
    assert.equal(redirected, false, `no login page; requests: ${fetched.join(', ')}`);
    assert.equal(tokensSaved, false);
  });
});
