// Interoperability test: LangChain's MCP adapters (@langchain/mcp-adapters,
// the version locked in package-lock.json) against the gateway binary.
// The adapters turn every resource_link of a tool result into a file block
// of the ToolMessage the chat model receives, and the chat models reject
// such blocks (ChatOpenAI: "URL file blocks with source_type url must be
// formatted as a data URL"; ChatAnthropic: "Unsupported file mime type").
// With --resource-links omit no file block reaches the model's messages;
// the default (the contract's content) still produces it. No model is
// called: the test drives the adapter's tool and inspects its ToolMessage.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { MultiServerMCPClient } from '@langchain/mcp-adapters';

import { buildGateway, secret, startDemo } from './gateway.mjs';

const token = secret('interop-token-');
const daguKey = secret('dagu_interop_');

let gateway; // { bin, cleanup }
let contractDemo; // the default: resource links as the contract says
let omitDemo; // --resource-links omit

before(async () => {
  gateway = await buildGateway();
  const env = { GATEWAY_AUTH_TOKENS: token, DAGU_API_KEY: daguKey };
  [contractDemo, omitDemo] = await Promise.all([
    startDemo(gateway.bin, [], { env }),
    startDemo(gateway.bin, ['--resource-links', 'omit'], { env }),
  ]);
}, { timeout: 120_000 });

after(async () => {
  await contractDemo?.stop();
  await omitDemo?.stop();
  await gateway?.cleanup();
});

/** The adapter's connection to a gateway, by transport name. */
const connections = {
  'Streamable HTTP': (demo) => ({
    transport: 'http',
    url: demo.mcpUrl,
    headers: { Authorization: `Bearer ${token}` },
  }),
  stdio: (demo, args) => ({
    transport: 'stdio',
    command: gateway.bin,
    args: ['stdio', '--log-level', 'error', ...args],
    env: { DAGU_URL: demo.daguUrl, DAGU_API_KEY: daguKey },
    stderr: 'pipe',
  }),
};

/** Reads that have a dagu:// URI, so the contract's content links it. */
const linkedReads = [
  { target: 'run', name: 'failing_job', dagRunId: 'latest' },
  { target: 'step_log', name: 'failing_job', dagRunId: 'latest', stepName: 'explode' },
  { target: 'dag_spec', name: 'failing_job' },
  { target: 'reference', name: 'read-tool' },
  { uri: 'dagu://runs/failing_job/latest/logs' },
];

/** The blocks of a ToolMessage's content (a string is one text block). */
function blocksOf(message) {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

/** Loads the adapter's dagu_read tool from one connection. */
async function daguRead(connection, options = {}) {
  const client = new MultiServerMCPClient({ mcpServers: { dagu: connection }, throwOnLoadError: true, ...options });
  const tools = await client.getTools();
  const tool = tools.find((t) => t.name === 'dagu_read');
  assert.ok(tool, 'the adapter loaded dagu_read');
  return { tool, close: () => client.close() };
}

/** Calls the tool as an agent does, with a tool call, and returns the ToolMessage. */
async function toolMessage(tool, args, id) {
  const message = await tool.invoke({ type: 'tool_call', id, name: 'dagu_read', args });
  assert.equal(message.tool_call_id, id);
  return message;
}

for (const [transport, connect] of Object.entries(connections)) {
  describe(`@langchain/mcp-adapters over ${transport}`, () => {
    it('with --resource-links omit no file block reaches the model messages', async () => {
      const { tool, close } = await daguRead(connect(omitDemo, ['--resource-links', 'omit']));
      try {
        for (const [i, args] of linkedReads.entries()) {
          const message = await toolMessage(tool, args, `call-omit-${i}`);
          const blocks = blocksOf(message);
          assert.deepEqual(blocks.filter((b) => b.type !== 'text'), [], `${JSON.stringify(args)}: only text blocks`);
          assert.ok(blocks.some((b) => b.text?.includes('Dagu read completed.')), `${JSON.stringify(args)}: the contract's text`);
        }
      } finally {
        await close();
      }
    });

    it("with the default, outputHandling { resource_link: 'artifact' } keeps the link from the model", async () => {
      const { tool, close } = await daguRead(connect(contractDemo, []), { outputHandling: { resource_link: 'artifact' } });
      try {
        for (const [i, args] of linkedReads.entries()) {
          const message = await toolMessage(tool, args, `call-artifact-${i}`);
          assert.deepEqual(blocksOf(message).filter((b) => b.type !== 'text'), [], `${JSON.stringify(args)}: only text blocks`);
        }
      } finally {
        await close();
      }
    });

    it('the default (the contract) reproduces the file block', async () => {
      const { tool, close } = await daguRead(connect(contractDemo, []));
      try {
        for (const [i, args] of linkedReads.entries()) {
          const message = await toolMessage(tool, args, `call-contract-${i}`);
          const files = blocksOf(message).filter((b) => b.type === 'file');
          assert.equal(files.length, 1, `${JSON.stringify(args)}: one file block`);
          assert.equal(files[0].source_type, 'url');
          assert.match(files[0].url, /^dagu:\/\//);
        }
      } finally {
        await close();
      }
    });
  });
}
