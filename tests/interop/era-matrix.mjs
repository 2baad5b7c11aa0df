// The era matrix (issue 39): every real client of tests/interop, at every
// MCP revision it can be made to speak, against one `gateway demo`, doing
// what the protocol document promises per revision: the handshake (or
// server/discover), tools/list, a dagu_read call, bad input, an unknown
// method, a 2025-03-26 batch, a resource that does not exist and the cache
// hints. A recording proxy between the clients and the gateway notes the
// HTTP status, content type and MCP-Protocol-Version of every exchange, so
// the bridge (mcp-remote) and the go-sdk client (gosdk_matrix_test.go, tag
// eramatrix) are measured the same way. Prints the matrix as Markdown and
// fails when a cell differs from docs/protocol.md.
//
//   node era-matrix.mjs            (after npm ci; builds the gateway)
//
// Not a CI suite: tests/interop's tests check the same per era; this is
// the cross-check by client and revision, run before a release.

import { spawn } from 'node:child_process';
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client as ClientV2, StreamableHTTPClientTransport as HTTPV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HTTPV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { buildGateway, cleanEnv, repoRoot, startDemo } from './gateway.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const pinned = JSON.parse(readFileSync(path.join(here, 'package.json'), 'utf8')).dependencies;
const version = (pkg) => pinned[pkg].replace(/^npm:.*@/, '');

const MODERN = '2026-07-28';
const REVISIONS = ['2025-03-26', '2025-06-18', '2025-11-25', MODERN];

/** What docs/protocol.md promises, per revision. */
const expected = (rev) => ({
  init: rev,
  list: 'dagu_read, ui',
  call: 'failed',
  bad: 'isError invalid_tool_input',
  unknown: rev === MODERN ? 'wire -32601, 404 json' : 'wire -32601, 200 json',
  batch: rev === '2025-03-26' ? 'served: 2 answers' : 'wire -32600, 400 json',
  missing: rev === MODERN ? 'wire -32602 +contract' : 'wire -32002 +contract',
  hints: rev === MODERN ? 'run private/300000, latest private/1000, ref public, call none' : null,
});

// ---------- the recording proxy ----------

/** exchanges[tag] lists { methods, version, status, type } of each request a client sent through /c/<tag>/mcp. */
const exchanges = {};

function startProxy(target) {
  const server = http.createServer((req, res) => {
    const m = req.url.match(/^\/c\/([^/]+)(\/mcp.*)$/);
    if (!m) return res.writeHead(404).end();
    const [, tag, rest] = m;
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let methods = '';
      try {
        const msg = JSON.parse(body.toString() || 'null');
        methods = (Array.isArray(msg) ? msg : [msg]).map((x) => x?.method ?? 'response').join(',');
        if (!Array.isArray(msg) && msg?.method === 'initialize') methods += `(${msg.params?.protocolVersion})`;
      } catch { methods = req.method; }
      const headers = { ...req.headers };
      delete headers.host;
      const up = http.request(new URL(rest, target), { method: req.method, headers }, (upRes) => {
        const type = upRes.headers['content-type'] ?? '';
        const seen = { methods, version: req.headers['mcp-protocol-version'] ?? '-', status: upRes.statusCode, type, wire: '' };
        (exchanges[tag] ??= []).push(seen);
        res.writeHead(upRes.statusCode, upRes.headers);
        const answer = [];
        upRes.on('data', (c) => { answer.push(c); res.write(c); });
        upRes.on('end', () => {
          res.end();
          if (!type.includes('json')) return;
          try {
            const msg = JSON.parse(Buffer.concat(answer).toString());
            seen.wire = Array.isArray(msg) ? `${msg.length} answers` : msg.error ? `${msg.error.code}${msg.error.data?.code === 'resource_not_found' ? ' +contract' : ''}` : 'result';
          } catch { seen.wire = 'not JSON'; }
        });
      });
      up.on('error', (e) => res.writeHead(502).end(String(e)));
      up.end(body);
    });
  });
  return new Promise((resolve) => server.listen(Number(process.env.ERA_MATRIX_PORT || 26110), '127.0.0.1', () => resolve(server)));
}

/** The last exchange of a tag whose methods match. */
const lastExchange = (tag, method) => [...(exchanges[tag] ?? [])].reverse().find((e) => e.methods.startsWith(method));
const httpOf = (e) => (e ? `${e.status} ${e.type.includes('json') ? 'json' : e.type.includes('event-stream') ? 'sse' : e.type || 'none'}` : '?');
/** What the gateway answered to the last exchange whose methods match: "wire <code> <status> <type>". */
const wireOf = (tag, method) => { const e = lastExchange(tag, method); return e ? `wire ${e.wire || '?'}, ${httpOf(e)}` : 'wire ?'; };

// ---------- what each cell reads ----------

const errCell = (e) => `${e.code ?? e.name}${e.data?.code === 'resource_not_found' ? ' +contract' : ''}`;

/** Runs the behaviours through one connected client; cells are short strings. */
async function probe(c, tag, rev) {
  const cells = {};
  const attempt = async (name, fn) => {
    try { cells[name] = await fn(); } catch (e) { cells[name] = `threw: ${errCell(e)} ${String(e.message).slice(0, 60)}`; }
  };
  cells.init = c.era();
  await attempt('list', async () => {
    const { tools } = await c.client.listTools();
    const t = tools.find((x) => x.name === 'dagu_read');
    return t ? `dagu_read${t._meta?.ui?.resourceUri ? ', ui' : ''}` : 'no dagu_read';
  });
  await attempt('call', async () => {
    const r = await c.client.callTool({ name: 'dagu_read', arguments: { target: 'run', name: 'failing_job', dagRunId: 'latest' } });
    return r.structuredContent?.data?.statusLabel ?? JSON.stringify(r).slice(0, 60);
  });
  await attempt('bad', async () => {
    const r = await c.client.callTool({ name: 'dagu_read', arguments: { target: 'run', name: 'failing_job', dagRunId: 'latest', limit: 'many' } });
    return `${r.isError ? 'isError' : 'ok'} ${r.structuredContent?.code ?? '-'}`;
  });
  await attempt('unknown', async () => {
    if (!c.request) return 'n/a';
    try { await c.request('foo/bar'); return 'answered'; } catch (e) { return `app ${e.code}; ${wireOf(tag, 'foo/bar')}`; }
  });
  await attempt('batch', async () => (c.batch ? c.batch() : 'n/a'));
  await attempt('missing', async () => {
    try { await c.client.readResource({ uri: 'dagu://dags/no_such_dag/spec' }); return 'answered'; } catch (e) { return `app ${errCell(e)}; ${wireOf(tag, 'resources/read').replace(/, \d+ json$/, '')}`; }
  });
  await attempt('hints', async () => {
    const latest = await c.client.readResource({ uri: 'dagu://runs/failing_job/latest' });
    const id = JSON.parse(latest.contents[0].text).dagRunId;
    const run = await c.client.readResource({ uri: `dagu://runs/failing_job/${id}` });
    const ref = await c.client.readResource({ uri: 'dagu://reference/read-tool' });
    const call = await c.client.callTool({ name: 'dagu_read', arguments: { target: 'dags' } });
    const hint = (r) => (r.cacheScope === undefined ? 'none' : `${r.cacheScope}/${r.ttlMs}`);
    return `run ${hint(run)}, latest ${hint(latest)}, ref ${ref.cacheScope ?? 'none'}, call ${hint(call)}`;
  });
  return cells;
}

/** A batch [ping, tools/list] sent by a 1.x transport (which takes arrays); the answers it hands back. */
function batchVia(transport, tag) {
  return () => new Promise((resolve) => {
    const seen = [];
    const prev = transport.onmessage;
    const done = (v) => { transport.onmessage = prev; resolve(v); };
    transport.onmessage = (m) => { if (m.id === 'b1' || m.id === 'b2') { seen.push(m); if (seen.length === 2) done('served: 2 answers'); } else prev?.(m); };
    transport.send([{ jsonrpc: '2.0', id: 'b1', method: 'ping' }, { jsonrpc: '2.0', id: 'b2', method: 'tools/list' }])
      .catch(() => done(wireOf(tag, 'ping,tools/list')));
    setTimeout(() => done(`no answer; ${wireOf(tag, 'ping,tools/list')}`), 10_000);
  });
}

// ---------- the clients ----------

/** A trivial Standard Schema for the 2.x client's request(). */
const anyResult = { '~standard': { version: 1, vendor: 'era-matrix', validate: (value) => ({ value }) } };

async function sdk2(base, tag, rev) {
  const opts = rev === MODERN ? { versionNegotiation: { mode: { pin: MODERN } } } : { supportedProtocolVersions: [rev] };
  const client = new ClientV2({ name: 'era-matrix-v2', version: '0' }, opts);
  await client.connect(new HTTPV2(new URL(`${base}/c/${tag}/mcp`)));
  return { client, era: () => client.getNegotiatedProtocolVersion(), request: (method) => client.request({ method, params: {} }, anyResult) };
}

/** An SDK 1.x release (the package aliased to name), which offers its own latest revision. */
function sdk1(name) {
  return async (base, tag) => {
    const { Client } = await import(`${name}/client/index.js`);
    const { StreamableHTTPClientTransport } = await import(`${name}/client/streamableHttp.js`);
    const { ResultSchema } = await import(`${name}/types.js`);
    const client = new Client({ name: 'era-matrix-v1', version: '0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/c/${tag}/mcp`));
    await client.connect(transport);
    return { client, era: () => transport.protocolVersion ?? lastExchange(tag, 'initialize')?.methods.match(/\((.*)\)/)?.[1],
      request: (method) => client.request({ method, params: {} }, ResultSchema), batch: batchVia(transport, tag) };
  };
}

/** The 1.x SDK over stdio to mcp-remote, which speaks to the gateway over HTTP; upstream era as the proxy saw it. */
function bridge(protocol, bridgeHome) {
  return async (base, tag) => {
    const args = [path.join(here, 'node_modules/mcp-remote/dist/proxy.js'), `${base}/c/${tag}/mcp`, '--allow-http'];
    if (protocol) args.push('--protocol', protocol);
    const transport = new StdioClientTransport({ command: process.execPath, args, env: cleanEnv({ MCP_REMOTE_CONFIG_DIR: bridgeHome }), stderr: 'pipe' });
    const client = new ClientV1({ name: 'era-matrix-bridge', version: '0' });
    await client.connect(transport);
    const { ResultSchema } = await import('@modelcontextprotocol/sdk/types.js');
    return { client, era: () => {
      const seen = exchanges[tag] ?? [];
      const init = seen.find((e) => e.methods.startsWith('initialize'));
      return init ? init.methods.match(/\((.*)\)/)[1] : [...seen].reverse().find((e) => e.version !== '-')?.version;
    }, request: (method) => client.request({ method, params: {} }, ResultSchema) };
  };
}

/** The go-sdk client: gosdk_matrix_test.go prints one ROW line per revision. */
function goRows(base) {
  return new Promise((resolve, reject) => {
    const child = spawn('go', ['test', '-tags', 'eramatrix', '-count=1', '-run', '^TestEraMatrix$', '-v', './tests/interop/'],
      { cwd: repoRoot, env: cleanEnv({ ERA_MATRIX_URL: `${base}/c/go-REV/mcp` }), stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (b) => { out += b; });
    child.on('exit', (code) => {
      const rows = out.split('\n').filter((l) => l.startsWith('ROW ')).map((l) => JSON.parse(l.slice(4)));
      code === 0 || rows.length ? resolve(rows) : reject(new Error(`go test failed:\n${out}`));
    });
  });
}

// ---------- main ----------

const gateway = await buildGateway();
const demo = await startDemo(gateway.bin, ['--listen', `127.0.0.1:${process.env.ERA_MATRIX_GATEWAY_PORT || 26111}`, '--dagu-port', process.env.ERA_MATRIX_DAGU_PORT || '26112']);
const proxy = await startProxy(demo.mcpUrl.replace(/\/mcp$/, ''));
const base = `http://127.0.0.1:${proxy.address().port}`;
const bridgeHome = await mkdtemp(path.join(tmpdir(), 'era-matrix-mcp-remote-'));

const v2 = `@modelcontextprotocol/client ${version('@modelcontextprotocol/client')}`;
const runs = [
  ...REVISIONS.map((rev) => ({ client: v2, rev, connect: (b, t) => sdk2(b, t, rev) })),
  { client: `@modelcontextprotocol/sdk ${version('sdk-2025-03-26')}`, rev: '2025-03-26', connect: sdk1('sdk-2025-03-26') },
  { client: `@modelcontextprotocol/sdk ${version('sdk-2025-06-18')}`, rev: '2025-06-18', connect: sdk1('sdk-2025-06-18') },
  { client: `@modelcontextprotocol/sdk ${version('@modelcontextprotocol/sdk')}`, rev: '2025-11-25', connect: sdk1('@modelcontextprotocol/sdk') },
  { client: `mcp-remote ${version('mcp-remote')} (SDK 1.x on stdio)`, rev: '2025-11-25', connect: bridge('', bridgeHome) },
  { client: `mcp-remote ${version('mcp-remote')} --protocol auto`, rev: MODERN, connect: bridge('auto', bridgeHome) },
];

const rows = [];
try {
  for (const [i, r] of runs.entries()) {
    const tag = `n${i}`;
    let cells;
    try {
      const c = await r.connect(base, tag);
      try { cells = await probe(c, tag, r.rev); } finally { await c.client.close().catch(() => {}); }
    } catch (e) { cells = { init: `connect failed: ${String(e.message).slice(0, 80)}` }; }
    rows.push({ client: r.client, rev: r.rev, cells });
  }
  for (const row of await goRows(base)) {
    if (/^-?\d/.test(row.cells.missing ?? '')) row.cells.missing = `app ${row.cells.missing}; ${wireOf(`go-${row.rev}`, 'resources/read').replace(/, \d+ json$/, '')}`;
    rows.push(row);
  }
} finally {
  proxy.close();
  await demo.stop();
  await gateway.cleanup();
  await rm(bridgeHome, { recursive: true, force: true });
}

const cols = ['init', 'list', 'call', 'bad', 'unknown', 'batch', 'missing', 'hints'];
let differs = 0;
console.log(`| Client | Revision | ${cols.join(' | ')} |`);
console.log(`| --- | --- | ${cols.map(() => '---').join(' | ')} |`);
for (const { client, rev, cells } of rows) {
  const want = expected(rev);
  const shown = cols.map((k) => {
    const got = cells[k] ?? '?';
    if (got === 'n/a' || want[k] === null || got === want[k] || got.endsWith(`; ${want[k]}`)) return got;
    differs++;
    return `**${got}** (want ${want[k]})`;
  });
  console.log(`| ${client} | ${rev} | ${shown.join(' | ')} |`);
}
console.log(differs ? `\n${differs} cell(s) differ from docs/protocol.md` : '\nevery cell as docs/protocol.md says');
process.exitCode = differs ? 1 : 0;
