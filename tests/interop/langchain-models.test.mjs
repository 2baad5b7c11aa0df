// What reaches the model through LangChain JS: LangGraph's ToolNode runs
// the dagu_read tool of @langchain/mcp-adapters for a tool call, as an agent
// does, and ChatOpenAI and ChatAnthropic convert the ToolMessage into the
// request their provider SDK sends. A fake fetch
// records that request; no model is called.
//
// At the documented URL the data is in the tool message. At the default
// /mcp a read with a dagu:// URI crashes the conversion (the adapter makes
// a file block of the resource link, which both chat models reject).
// With resource-links=omit alone the adapter serialises the lone text item
// with structuredContent: the dags list, which the contract's text also
// holds, reaches the model twice.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { ChatAnthropic } from '@langchain/anthropic';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import { ChatOpenAI } from '@langchain/openai';

import {
  assertCorrectable, authHeaders, contractText, misspelled, occurrences, reads, recordingFetch, startGateway, unusedBaseURL,
} from './frameworks.mjs';

let gateway;

before(async () => {
  gateway = await startGateway();
}, { timeout: 300_000 });

after(async () => {
  await gateway?.stop();
});

const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };

/** The chat models, each with its fake endpoint and the error it throws on a file block. */
const providers = {
  'ChatOpenAI (Chat Completions)': {
    model: (fetch) => new ChatOpenAI({
      model: 'gpt-4o-mini',
      apiKey: 'sk-interop-fake',
      maxRetries: 0,
      configuration: { fetch, baseURL: unusedBaseURL },
    }),
    reply: {
      id: 'chatcmpl-interop', object: 'chat.completion', created: 1, model: 'gpt-4o-mini', usage,
      choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
    },
    toolPart: (body) => body.messages.find((m) => m.role === 'tool'),
    crash: /URL file blocks with source_type url must be formatted as a data URL/,
  },
  ChatAnthropic: {
    model: (fetch) => new ChatAnthropic({
      model: 'claude-sonnet-4-5',
      apiKey: 'sk-ant-interop-fake',
      maxRetries: 0,
      anthropicApiUrl: unusedBaseURL,
      clientOptions: { fetch },
    }),
    reply: {
      id: 'msg_interop', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    },
    toolPart: (body) => body.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []))
      .find((b) => b.type === 'tool_result'),
    crash: /Unsupported file mime type for file url source: application\/json/,
  },
};

/**
 * Calls dagu_read through the adapter at url, hands the ToolMessage to the
 * provider's chat model and returns the tool part of the request body the
 * provider SDK sent, as JSON text.
 */
async function toolPartSent(provider, url, args) {
  const client = new MultiServerMCPClient({
    mcpServers: { dagu: { transport: 'http', url, headers: authHeaders } },
    throwOnLoadError: true,
  });
  try {
    const tools = await client.getTools();
    assert.ok(tools.some((t) => t.name === 'dagu_read'), 'the adapter loaded dagu_read');
    const toolCall = new AIMessage({ content: '', tool_calls: [{ id: 'call_interop', name: 'dagu_read', args }] });
    const { messages: [toolMessage] } = await new ToolNode(tools).invoke({ messages: [toolCall] });
    const { fetch, requests } = recordingFetch([provider.reply]);
    const messages = [new HumanMessage('Why did failing_job fail?'), toolCall, toolMessage];
    await provider.model(fetch).invoke(messages);
    assert.equal(requests.length, 1, 'one request to the provider');
    const part = provider.toolPart(requests[0].body);
    assert.ok(part, `a tool part in ${JSON.stringify(requests[0].body)}`);
    return JSON.stringify(part);
  } finally {
    await client.close();
  }
}

for (const [name, provider] of Object.entries(providers)) {
  describe(`LangChain JS (@langchain/mcp-adapters) with ${name}`, () => {
    for (const [readName, read] of Object.entries(reads)) {
      it(`at the documented URL the tool message holds the data of ${readName}`, async () => {
        const part = await toolPartSent(provider, gateway.documentedUrl, read.args);
        assert.ok(part.includes(read.data), `${read.data} in ${part}`);
      });
    }

    it('at the documented URL the log line reaches the model once, without structuredContent', async () => {
      // The adapter adds structuredContent to a lone text item, and the tool
      // serialises that object into the message; the data in a second text
      // item keeps the content a list of text blocks.
      const part = await toolPartSent(provider, gateway.documentedUrl, reads.stepLog.args);
      assert.equal(occurrences(part, reads.stepLog.data), 1, part);
      assert.ok(!part.includes('structuredContent'), part);
    });

    it('at the documented URL a misspelled query parameter reaches the model with its code and did-you-mean', async () => {
      assertCorrectable(await toolPartSent(provider, gateway.documentedUrl, misspelled.query.args), misspelled.query);
    });

    it("a misspelled target is refused by the adapter's input schema before the gateway sees it", async () => {
      // The schema's enum of targets: the model learns the input was wrong,
      // not which target it meant.
      const part = await toolPartSent(provider, gateway.documentedUrl, misspelled.target.args);
      assert.match(part, /did not match expected schema/);
      assert.ok(!part.includes('Did you mean'), part);
    });

    it('at the default /mcp a read with a resource link crashes the conversion', async () => {
      await assert.rejects(toolPartSent(provider, gateway.defaultUrl, reads.stepLog.args), provider.crash);
    });

    it("at the default /mcp a read without a link reaches the model (the contract's dags text carries the data)", async () => {
      const part = await toolPartSent(provider, gateway.defaultUrl, reads.dags.args);
      assert.ok(part.includes(contractText), part);
      assert.ok(part.includes(reads.dags.data), part);
    });

    it('at /mcp?resource-links=omit the dags list reaches the model twice (the contract text and structuredContent), a step log once', async () => {
      // docs/clients.md (LangChain MCP adapters): resource-links=omit alone keeps a
      // lone text item, which the adapter serialises with structuredContent.
      const omitUrl = `${gateway.defaultUrl}?resource-links=omit`;
      const once = occurrences(await toolPartSent(provider, gateway.documentedUrl, reads.dags.args), reads.dags.data);
      assert.ok(once > 0);
      const part = await toolPartSent(provider, omitUrl, reads.dags.args);
      assert.ok(part.includes('structuredContent'), part);
      assert.equal(occurrences(part, reads.dags.data), 2 * once, part);
      const log = await toolPartSent(provider, omitUrl, reads.stepLog.args);
      assert.equal(occurrences(log, reads.stepLog.data), 1, log);
    });
  });
}
