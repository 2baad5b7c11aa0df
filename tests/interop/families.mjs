// What every client of the era tests reads: each dagu_read target family
// in target mode and one resource per family, against `gateway demo`, with
// what the application receives checked. The clients differ (the
// TypeScript SDK 2.x and 1.x, the mcp-remote bridge); their calls
// (callTool, readResource) and errors (a code and data) have one shape.

import assert from 'node:assert/strict';

/** The MCP revisions the gateway serves to these clients. */
export const MODERN = '2026-07-28';
export const LEGACY = '2025-11-25';

/** The JSON-RPC code of a resource that does not exist, per revision. */
export function resourceNotFoundCode(era) {
  return era === MODERN ? -32602 : -32002;
}

/** Calls dagu_read and returns its structured content, failing on isError unless allowed. */
async function read(client, args, { error = false } = {}) {
  const res = await client.callTool({ name: 'dagu_read', arguments: args });
  assert.equal(Boolean(res.isError), error, `${JSON.stringify(args)}: isError ${res.isError}: ${JSON.stringify(res.structuredContent)}`);
  assert.ok(res.structuredContent, `${JSON.stringify(args)}: no structuredContent`);
  return res.structuredContent;
}

/**
 * The target families: each reads every target of its family and checks
 * what the application gets. A family's reads run in order; what one
 * learns (the foreach step's URI, an item) feeds the next.
 */
export const families = {
  dags: async (client) => {
    assert.ok((await read(client, { target: 'dags' })).data.items.some((d) => d.name === 'failing_job'));
    assert.equal((await read(client, { target: 'dag', name: 'failing_job' })).data.name, 'failing_job');
    assert.match((await read(client, { target: 'dag_spec', name: 'failing_job' })).data.spec, /steps/);
    assert.ok(Array.isArray((await read(client, { target: 'dag_search', search: 'echo' })).data.results));
  },
  runs: async (client) => {
    assert.ok((await read(client, { target: 'runs', query: 'status=2' })).data.items.length > 0);
    const run = (await read(client, { target: 'run', name: 'failing_job', dagRunId: 'latest' })).data;
    assert.equal(run.statusLabel, 'failed');
    const logs = (await read(client, { target: 'run_logs', name: 'failing_job', dagRunId: run.dagRunId })).data;
    assert.ok(logs.stepLogs.some((s) => s.stepName === 'explode'));
    const log = (await read(client, { target: 'step_log', name: 'failing_job', dagRunId: 'latest', stepName: 'explode' })).data;
    assert.match(log.stderrContent, /disk full/);
  },
  foreach: async (client) => {
    const items = (await read(client, { target: 'foreach_items', name: 'foreach_job', dagRunId: 'latest', stepName: 'each' })).data;
    assert.ok(items.total > 0 && items.items.length > 0);
    const item = (await read(client, { target: 'foreach_item', name: 'foreach_job', dagRunId: 'latest', stepName: 'each', item: items.items[0].item })).data;
    assert.equal(item.item, items.items[0].item);
  },
  wiki: async (client) => {
    assert.ok((await read(client, { target: 'wiki' })).data);
    assert.match((await read(client, { target: 'wiki_page', workspace: 'default', path: 'runbooks/nightly-export' })).data.content, /Nightly export/);
    assert.ok((await read(client, { target: 'wiki_search', search: 'failing' })).data.results.length > 0);
  },
  reference: async (client) => {
    assert.ok((await read(client, { target: 'references' })).data.items.some((t) => t.name === 'read-tool'));
    assert.match((await read(client, { target: 'reference', name: 'read-tool' })).data.text, /dagu:\/\/runs/);
  },
  workbook: async (client) => {
    // A workbook is a file on the gateway's host, which the demo has none
    // of: the application gets the contract's error for a missing one.
    const err = await read(client, { target: 'workbook', path: '/nonexistent/report.xlsx' }, { error: true });
    assert.equal(err.code, 'resource_not_found');
    assert.equal(err.field, 'path');
  },
};

/**
 * One resource per family, with the MIME type and content the application
 * reads, and (in the 2026-07-28 era, where results carry them) the cache
 * hints: a caller's Dagu data private, the reference topics public. The
 * workbook family has no dagu:// resource.
 */
export const resources = {
  dags: { uri: 'dagu://dags/failing_job/spec', mimeType: 'application/yaml', scope: 'private', check: (text) => assert.match(text, /steps/) },
  runs: { uri: 'dagu://runs/failing_job/latest', mimeType: 'application/json', scope: 'private', check: (text) => assert.equal(JSON.parse(text).name, 'failing_job') },
  foreach: { uri: 'dagu://runs/foreach_job/latest/steps/each/foreach', mimeType: 'application/json', scope: 'private', check: (text) => assert.ok(JSON.parse(text).total > 0) },
  wiki: { uri: 'dagu://wiki/default/runbooks%2Fnightly-export', mimeType: 'text/markdown', scope: 'private', check: (text) => assert.match(text, /Nightly export/) },
  reference: { uri: 'dagu://reference/read-tool', mimeType: 'text/markdown', scope: 'public', check: (text) => assert.match(text, /dagu:\/\/runs/) },
};

/** Reads a family's resource and checks what the application gets. */
export async function readFamilyResource(client, family, era) {
  const want = resources[family];
  const res = await client.readResource({ uri: want.uri });
  assert.equal(res.contents.length, 1);
  assert.equal(res.contents[0].mimeType, want.mimeType);
  want.check(res.contents[0].text);
  if (era === MODERN) {
    assert.equal(res.cacheScope, want.scope, `${want.uri}: cacheScope`);
    assert.ok(Number.isInteger(res.ttlMs) && res.ttlMs >= 0, `${want.uri}: ttlMs ${res.ttlMs}`);
  }
}

/**
 * Reads a resource that does not exist and checks what the application
 * gets: by default the revision's code with the contract's error object as
 * data. A client may turn the error into its own (wants overrides code and
 * whether the contract's object survives).
 */
export async function readMissingResource(client, era, wants = {}) {
  const uri = 'dagu://dags/no_such_dag/spec';
  const { code = resourceNotFoundCode(era), contract = true } = wants;
  await assert.rejects(client.readResource({ uri }), (err) => {
    assert.equal(err.code, code, `code of a missing resource in ${era}: ${err}`);
    assert.match(err.message, /DAG "no_such_dag" was not found/);
    assert.equal(err.data?.uri, uri);
    if (contract) assert.equal(err.data?.code, 'resource_not_found');
    return true;
  });
}
