// Shared set-up of the agent-framework tests (LangChain JS, the AI SDK, the
// OpenAI Agents SDK): a gateway with an inbound token, the two URLs a client
// can be given, the reads whose data must reach the model, and fake model
// endpoints that record what a provider SDK would send. No model key, no
// network: the fake endpoints answer in process.

import assert from 'node:assert/strict';

import { buildGateway, secret, startDemo } from './gateway.mjs';

/** The inbound token every framework sends, as the snippets of docs/clients.md do. */
export const token = secret('interop-token-');

const daguKey = secret('dagu_interop_');

/** The query of the URL docs/clients.md gives agent frameworks. */
export const documentedQuery = 'text-content=json&resource-links=omit';

/**
 * Starts the gateway the framework tests talk to and returns
 * { defaultUrl, documentedUrl, stop }: one gateway with the default flags,
 * whose /mcp serves spec 021's content and whose documented URL the output
 * docs/clients.md gives agent frameworks.
 */
export async function startGateway() {
  const gateway = await buildGateway();
  const demo = await startDemo(gateway.bin, [], { env: { GATEWAY_AUTH_TOKENS: token, DAGU_API_KEY: daguKey } });
  return {
    defaultUrl: demo.mcpUrl,
    documentedUrl: `${demo.mcpUrl}?${documentedQuery}`,
    stop: async () => {
      await demo.stop();
      await gateway.cleanup();
    },
  };
}

/** The Authorization header of the inbound token. */
export const authHeaders = { Authorization: `Bearer ${token}` };

/**
 * Reads whose data must reach the model, and a value of that data: a DAG
 * name from the DAG list (no dagu:// URI, so no resource link), a log line
 * from a step log (a read with a URI, so the contract links it).
 */
export const reads = {
  dags: { args: { target: 'dags' }, data: 'failing_job' },
  stepLog: {
    args: { target: 'step_log', name: 'failing_job', dagRunId: 'latest', stepName: 'explode' },
    data: 'boom: disk full',
  },
};

/**
 * Misspelled reads, the contract code of their error and the word its
 * did-you-mean suggests: the model must get all three to correct itself.
 */
export const misspelled = {
  target: { args: { target: 'dagz' }, code: 'unsupported_read_target', suggestion: 'dags' },
  query: { args: { target: 'runs', query: 'statuz=2' }, code: 'invalid_tool_input', suggestion: 'status' },
};

/** Asserts that text carries a misspelled read's code and did-you-mean. */
export function assertCorrectable(text, { code, suggestion }) {
  for (const want of [code, 'Did you mean', suggestion]) assert.ok(text.includes(want), `${want} in ${text}`);
}

/** The text the contract answers every successful read with. */
export const contractText = 'Dagu read completed.';

/** How many times needle occurs in text. */
export function occurrences(text, needle) {
  return text.split(needle).length - 1;
}

/**
 * A fetch for a provider SDK: it records each request's URL and JSON body
 * and answers with the next reply (the last one repeats).
 */
export function recordingFetch(replies) {
  const requests = [];
  const fetch = async (url, init) => {
    requests.push({ url: String(url), body: JSON.parse(init.body) });
    const reply = replies[Math.min(requests.length, replies.length) - 1];
    return new Response(JSON.stringify(reply), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { fetch, requests };
}

/** A loopback address nothing listens on: a request that escapes the fake fetch fails at once. */
export const unusedBaseURL = 'http://127.0.0.1:9';
