/**
 * The OpenAI Chat Completions side of the scripted model, over real HTTP on loopback, read as
 * a client reads it (no SDK is installed here: fetch and the SSE text).
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseSse } from "./read-sse";
import { fingerprint } from "./recording";
import { startScriptedModel, type ScriptedModel } from "./scripted-model";

let model: ScriptedModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

const TOOLS = ["switchyard_Write", "switchyard_Read"].map((name) => ({
  type: "function",
  function: { name, parameters: { type: "object" } },
}));

const post = (url: string, body: unknown) =>
  fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer sk-oai-test-7" },
    body: JSON.stringify(body),
  });

type Chunk = {
  choices: {
    delta: {
      content?: string;
      tool_calls?: {
        index: number;
        id?: string;
        function: { name?: string; arguments?: string };
      }[];
    };
    finish_reason: string | null;
  }[];
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
};

describe("OpenAI Chat Completions", () => {
  it("streams content and tool_calls deltas, then a usage chunk when include_usage is set, then [DONE]", async () => {
    const args = {
      path: "out/report.md",
      content: "# Report\n\nA body long enough for several argument pieces.",
    };
    model = await startScriptedModel({
      script: [{ text: "On it.", toolCalls: [{ name: { suffix: "Write" }, arguments: args }] }],
    });
    const res = await post(model.url, {
      model: "gpt-x",
      stream: true,
      stream_options: { include_usage: true },
      tools: TOOLS,
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: "write it" },
      ],
    });
    expect(res.status).toBe(200);
    const events = parseSse(await res.text());
    expect(events.at(-1)!.data).toBe("[DONE]");
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data) as Chunk);
    let content = "";
    const calls: { id?: string; name?: string; arguments: string }[] = [];
    let finish: string | null = null;
    for (const chunk of chunks) {
      for (const choice of chunk.choices) {
        content += choice.delta.content ?? "";
        for (const d of choice.delta.tool_calls ?? []) {
          const call = (calls[d.index] ??= { arguments: "" });
          if (d.id) call.id = d.id;
          if (d.function.name) call.name = d.function.name;
          call.arguments += d.function.arguments ?? "";
        }
        finish = choice.finish_reason ?? finish;
      }
    }
    expect(content).toBe("On it.");
    expect(calls).toHaveLength(1);
    expect(calls[0]!.name).toBe("switchyard_Write");
    expect(calls[0]!.id).toMatch(/^call_/);
    expect(JSON.parse(calls[0]!.arguments)).toEqual(args);
    expect(finish).toBe("tool_calls");
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage!.total_tokens).toBe(
      last.usage!.prompt_tokens + last.usage!.completion_tokens,
    );
    expect(last.usage!.prompt_tokens).toBeGreaterThan(0);
  });

  it("sends no usage chunk unless asked, and answers without streaming with tool_calls and usage", async () => {
    model = await startScriptedModel({
      script: [
        { text: "plain" },
        {
          toolCalls: [{ name: "switchyard_Read", arguments: { path: "a" } }],
          expect: { systemContains: "be brief" },
        },
      ],
    });
    const streamed = parseSse(
      await (await post(model.url, { model: "m", stream: true, messages: [] })).text(),
    );
    expect(streamed.some((e) => e.data.includes('"usage"'))).toBe(false);

    const res = await post(model.url, {
      model: "m",
      tools: TOOLS,
      messages: [
        { role: "developer", content: "be brief" },
        { role: "user", content: "read" },
      ],
    });
    expect(await res.json()).toMatchObject({
      object: "chat.completion",
      choices: [
        {
          message: {
            role: "assistant",
            content: null,
            tool_calls: [
              {
                type: "function",
                function: { name: "switchyard_Read", arguments: '{"path":"a"}' },
              },
            ],
          },
          finish_reason: "tool_calls",
        },
      ],
      usage: {
        prompt_tokens: expect.any(Number) as number,
        completion_tokens: expect.any(Number) as number,
      },
    });
    expect(model.failures).toEqual([]);
    expect(model.requests[1]!.auth).toEqual([
      { header: "authorization", scheme: "Bearer", fingerprint: fingerprint("sk-oai-test-7") },
    ]);
    expect(model.requests[1]!.headers.authorization).toBe(
      `Bearer <${fingerprint("sk-oai-test-7")}>`,
    );
  });

  it("reads the last tool message as the tool result", async () => {
    model = await startScriptedModel({
      script: [{ text: "ok", expect: { lastToolResultContains: "42 lines" } }],
    });
    const res = await post(model.url, {
      model: "m",
      messages: [
        { role: "user", content: "count" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c1", type: "function", function: { name: "x", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: "c1", content: [{ type: "text", text: "42 lines" }] },
      ],
    });
    expect(res.status).toBe(200);
    expect(model.failures).toEqual([]);
  });
});
