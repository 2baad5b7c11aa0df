// What reaches the model through the OpenAI Agents SDK for JavaScript: an
// Agent with the gateway as MCPServerStreamableHttp, run by a Runner whose
// model provider is a fake that first asks for a dagu_read call and then
// records the input holding the tool's output.
//
// Without useStructuredContent the SDK gives the model the MCP content: at
// the documented URL that is the data as text; at the default /mcp a linked
// read gives the contract's text and the link only. With
// useStructuredContent: true it gives structuredContent as JSON instead.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { Agent, MCPServerStreamableHttp, Runner, Usage, setTracingDisabled } from '@openai/agents';

import { assertCorrectable, authHeaders, contractText, misspelled, occurrences, reads, startGateway } from './frameworks.mjs';

// Tracing would export to OpenAI's platform.
setTracingDisabled(true);

let gateway;

before(async () => {
  gateway = await startGateway();
}, { timeout: 300_000 });

after(async () => {
  await gateway?.stop();
});

/** A model that calls dagu_read with args, then answers; it records every request. */
function scriptedModel(args) {
  const requests = [];
  const model = {
    async getResponse(request) {
      requests.push(request);
      if (requests.length === 1) {
        return {
          usage: new Usage(),
          output: [{ type: 'function_call', callId: 'call_interop', name: 'dagu_read', arguments: JSON.stringify(args), status: 'completed' }],
        };
      }
      return {
        usage: new Usage(),
        output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'ok' }] }],
      };
    },
    getStreamedResponse() {
      throw new Error('the test runs without streaming');
    },
  };
  return { model, requests };
}

/**
 * Runs an agent whose model calls dagu_read at url and returns the output
 * of the function call result in the model's next input, as JSON text.
 */
async function toolOutputSent(url, args, serverOptions = {}) {
  const server = new MCPServerStreamableHttp({ url, name: 'dagu', requestInit: { headers: authHeaders }, ...serverOptions });
  await server.connect();
  try {
    const { model, requests } = scriptedModel(args);
    const agent = new Agent({ name: 'ops', instructions: 'Answer from Dagu.', mcpServers: [server] });
    const runner = new Runner({ modelProvider: { getModel: () => model } });
    const result = await runner.run(agent, 'Why did failing_job fail?');
    assert.equal(result.finalOutput, 'ok');
    assert.equal(requests.length, 2, 'the model was asked again with the tool output');
    const results = requests[1].input.filter((item) => item.type === 'function_call_result');
    assert.equal(results.length, 1, 'one function call result');
    return JSON.stringify(results[0].output);
  } finally {
    await server.close();
  }
}

describe('OpenAI Agents SDK (@openai/agents) over Streamable HTTP', () => {
  for (const [readName, read] of Object.entries(reads)) {
    it(`at the documented URL the tool output holds the data of ${readName}`, async () => {
      const output = await toolOutputSent(gateway.documentedUrl, read.args);
      assert.ok(output.includes(read.data), `${read.data} in ${output}`);
    });
  }

  for (const [what, read] of Object.entries(misspelled)) {
    it(`at the documented URL a misspelled ${what} reaches the model with its code and did-you-mean`, async () => {
      assertCorrectable(await toolOutputSent(gateway.documentedUrl, read.args), read);
    });
  }

  it('at the documented URL the log line reaches the model once', async () => {
    const output = await toolOutputSent(gateway.documentedUrl, reads.stepLog.args);
    assert.equal(occurrences(output, reads.stepLog.data), 1, output);
  });

  it("at the default /mcp a linked read gives the model the contract's text and the link, not the data", async () => {
    const output = await toolOutputSent(gateway.defaultUrl, reads.stepLog.args);
    assert.ok(output.includes(contractText), output);
    assert.ok(output.includes('resource_link'), output);
    assert.ok(!output.includes(reads.stepLog.data), `no log line in ${output}`);
  });

  it('at the default /mcp useStructuredContent: true gives the model structuredContent', async () => {
    const output = await toolOutputSent(gateway.defaultUrl, reads.stepLog.args, { useStructuredContent: true });
    assert.equal(occurrences(output, reads.stepLog.data), 1, output);
    assert.ok(!output.includes('resource_link'), output);
  });
});
