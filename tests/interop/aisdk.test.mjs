// What reaches the model through the Vercel AI SDK: @ai-sdk/mcp's tools in
// generateText, with a mock language model from ai/test that first asks for
// a dagu_read call and then records the prompt holding the tool result.
//
// The AI SDK passes text content as text, any other content (a resource
// link) as its JSON, and never structuredContent. At the documented URL the
// data is in the tool result; at the default /mcp a linked read gives the
// model the contract's text and the link only.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { createMCPClient } from '@ai-sdk/mcp';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';

import { assertCorrectable, authHeaders, contractText, misspelled, occurrences, reads, startGateway } from './frameworks.mjs';

let gateway;

before(async () => {
  gateway = await startGateway();
}, { timeout: 300_000 });

after(async () => {
  await gateway?.stop();
});

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A mock model that calls dagu_read with args, then answers in text. */
function scriptedModel(args) {
  return new MockLanguageModelV4({
    doGenerate: [
      {
        content: [{ type: 'tool-call', toolCallId: 'call_interop', toolName: 'dagu_read', input: JSON.stringify(args) }],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      },
      { content: [{ type: 'text', text: 'ok' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] },
    ],
  });
}

/**
 * Runs an agent step through dagu_read at url and returns the tool-result
 * output of the prompt the model got next.
 */
async function toolOutputSent(url, args) {
  const client = await createMCPClient({ transport: { type: 'http', url, headers: authHeaders } });
  try {
    const model = scriptedModel(args);
    const result = await generateText({ model, tools: await client.tools(), prompt: 'Why did failing_job fail?', stopWhen: stepCountIs(3) });
    assert.equal(result.text, 'ok');
    assert.equal(model.doGenerateCalls.length, 2, 'the model was asked again with the tool result');
    const results = model.doGenerateCalls[1].prompt
      .filter((m) => m.role === 'tool')
      .flatMap((m) => m.content)
      .filter((p) => p.type === 'tool-result');
    assert.equal(results.length, 1, 'one tool result');
    return results[0].output;
  } finally {
    await client.close();
  }
}

/** The texts of a tool-result output. */
function textsOf(output) {
  assert.equal(output.type, 'content', JSON.stringify(output));
  return output.value.map((part) => {
    assert.equal(part.type, 'text', JSON.stringify(part));
    return part.text;
  });
}

describe('Vercel AI SDK (@ai-sdk/mcp)', () => {
  for (const [readName, read] of Object.entries(reads)) {
    it(`at the documented URL the tool result holds the data of ${readName}`, async () => {
      const text = textsOf(await toolOutputSent(gateway.documentedUrl, read.args)).join('\n');
      assert.ok(text.includes(read.data), `${read.data} in ${text}`);
    });
  }

  for (const [what, read] of Object.entries(misspelled)) {
    it(`at the documented URL a misspelled ${what} reaches the model with its code and did-you-mean`, async () => {
      assertCorrectable(textsOf(await toolOutputSent(gateway.documentedUrl, read.args)).join('\n'), read);
    });
  }

  it('at the documented URL the log line reaches the model once', async () => {
    const output = await toolOutputSent(gateway.documentedUrl, reads.stepLog.args);
    assert.equal(occurrences(JSON.stringify(output), reads.stepLog.data), 1, JSON.stringify(output));
  });

  it("at the default /mcp a linked read gives the model the contract's text and the link as JSON, not the data", async () => {
    const texts = textsOf(await toolOutputSent(gateway.defaultUrl, reads.stepLog.args));
    assert.deepEqual(texts.length, 2, JSON.stringify(texts));
    assert.equal(texts[0], contractText);
    const link = JSON.parse(texts[1]);
    assert.equal(link.type, 'resource_link');
    assert.equal(link.uri, 'dagu://runs/failing_job/latest/steps/explode/logs');
    assert.ok(!texts.join('\n').includes(reads.stepLog.data), 'no log line');
  });
});
