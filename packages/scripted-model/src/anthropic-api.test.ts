/**
 * The Anthropic Messages side of the scripted model, over real HTTP on loopback, read the way
 * a client reads it (no SDK is installed here: fetch and the SSE text).
 */
import { afterEach, describe, expect, it } from "vitest";
import { readSseJson } from "./read-sse";
import { fingerprint } from "./recording";
import { startScriptedModel, type ScriptedModel } from "./scripted-model";

let model: ScriptedModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

const TOOLS = [
  { name: "mcp__switchyard__Write", input_schema: { type: "object" } },
  { name: "mcp__switchyard__Read", input_schema: { type: "object" } },
];

const post = (url: string, body: unknown, key = "sk-ant-test-1") =>
  fetch(`${url}/v1/messages?beta=true`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-api-key": key,
      "anthropic-version": "2023-06-01",
    },
    body: JSON.stringify(body),
  });

type Event = {
  type: string;
  index?: number;
  delta?: Record<string, unknown>;
  [k: string]: unknown;
};

/** Rebuilds the message the way a streaming client does. */
const assemble = (events: Event[]) => {
  const blocks: Record<string, unknown>[] = [];
  const json: string[] = [];
  let stop: unknown;
  let usage: unknown;
  for (const e of events) {
    if (e.type === "content_block_start") {
      blocks[e.index!] = { ...(e.content_block as object) };
      json[e.index!] = "";
    } else if (e.type === "content_block_delta") {
      const block = blocks[e.index!]!;
      if (e.delta!.type === "text_delta")
        block.text = `${String(block.text)}${String(e.delta!.text)}`;
      else json[e.index!] += String(e.delta!.partial_json);
    } else if (e.type === "content_block_stop" && blocks[e.index!]!.type === "tool_use") {
      blocks[e.index!]!.input = JSON.parse(json[e.index!]!);
    } else if (e.type === "message_delta") {
      stop = e.delta!.stop_reason;
      usage = e.usage;
    }
  }
  return { blocks, stop, usage };
};

describe("Anthropic Messages", () => {
  it("streams text and tool_use blocks that a client reassembles, with usage and the stop reason", async () => {
    const args = {
      path: "notes/a.txt",
      content: "a line long enough to be sent in several pieces\n",
    };
    model = await startScriptedModel({
      script: [
        {
          text: "Writing the file now.",
          toolCalls: [{ name: "mcp__switchyard__Write", arguments: args }],
        },
      ],
    });
    const res = await post(model.url, {
      model: "claude-x",
      stream: true,
      max_tokens: 100,
      tools: TOOLS,
      messages: [{ role: "user", content: "go" }],
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const events = await readSseJson(res);
    const types = events.map((e) => e.event);
    expect(types[0]).toBe("message_start");
    expect(types.at(-2)).toBe("message_delta");
    expect(types.at(-1)).toBe("message_stop");
    for (const e of events) expect((e.data as Event).type).toBe(e.event);
    const deltas = events.filter((e) => (e.data as Event).delta?.type === "input_json_delta");
    expect(deltas.length).toBeGreaterThan(1);
    const { blocks, stop, usage } = assemble(events.map((e) => e.data as Event));
    expect(blocks).toEqual([
      { type: "text", text: "Writing the file now." },
      {
        type: "tool_use",
        id: expect.stringMatching(/^toolu_/) as string,
        name: "mcp__switchyard__Write",
        input: args,
      },
    ]);
    expect(stop).toBe("tool_use");
    expect(usage).toMatchObject({
      input_tokens: expect.any(Number) as number,
      output_tokens: expect.any(Number) as number,
    });
    const start = events[0]!.data as {
      message: { model: string; usage: { input_tokens: number } };
    };
    expect(start.message.model).toBe("claude-x");
    expect(start.message.usage.input_tokens).toBeGreaterThan(0);
    expect(model.failures).toEqual([]);
  });

  it("answers without streaming, and a tool_result in the next request satisfies the turn's expectation", async () => {
    model = await startScriptedModel({
      script: {
        turns: [
          {
            toolCalls: [{ name: { suffix: "Read" }, arguments: { path: "a.txt" } }],
            expect: { toolOffered: "mcp__switchyard__Read" },
          },
          {
            text: "done",
            expect: { lastToolResultContains: "hello from a.txt" },
            usage: { inputTokens: 7, outputTokens: 2 },
          },
        ],
      },
    });
    const first = await post(model.url, {
      model: "m",
      max_tokens: 10,
      tools: TOOLS,
      messages: [{ role: "user", content: "read it" }],
    });
    const message = (await first.json()) as {
      content: { type: string; id: string; name: string; input: unknown }[];
      stop_reason: string;
    };
    expect(message.stop_reason).toBe("tool_use");
    const call = message.content[0]!;
    expect(call).toMatchObject({
      type: "tool_use",
      name: "mcp__switchyard__Read",
      input: { path: "a.txt" },
    });

    const second = await post(model.url, {
      model: "m",
      max_tokens: 10,
      tools: TOOLS,
      messages: [
        { role: "user", content: "read it" },
        { role: "assistant", content: message.content },
        {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: call.id,
              content: [{ type: "text", text: "hello from a.txt" }],
            },
          ],
        },
      ],
    });
    expect(second.status).toBe(200);
    expect(await second.json()).toMatchObject({
      content: [{ type: "text", text: "done" }],
      stop_reason: "end_turn",
      usage: { input_tokens: 7, output_tokens: 2 },
    });
    expect(model.failures).toEqual([]);
    expect(model.turnsLeft).toBe(0);
  });

  it("marks tools listed with defer_loading (Claude Code's DeferredToolPlaceholder) as deferred", async () => {
    model = await startScriptedModel({ script: [{ text: "hi" }] });
    const placeholder = {
      name: "DeferredToolPlaceholder",
      input_schema: { type: "object" },
      defer_loading: true,
    };
    await (
      await post(model.url, { model: "m", tools: [...TOOLS, placeholder], messages: [] })
    ).text();
    expect(model.requests[0]!.view!.tools).toEqual([
      { name: "mcp__switchyard__Write" },
      { name: "mcp__switchyard__Read" },
      { name: "DeferredToolPlaceholder", deferred: true },
    ]);
  });

  it("answers Claude Code's HEAD / and /api/hello probes and records the key as a fingerprint only", async () => {
    model = await startScriptedModel({ script: [{ text: "hi" }] });
    const head = await fetch(`${model.url}/`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect((await fetch(`${model.url}/api/hello`, { method: "HEAD" })).status).toBe(200);
    await (await post(model.url, { model: "m", messages: [] }, "sk-ant-secret-42")).text();
    const [probe, hello, turn] = model.requests;
    expect(hello).toMatchObject({ path: "/api/hello", answeredBy: { kind: "probe" } });
    expect(probe).toMatchObject({
      method: "HEAD",
      path: "/",
      answeredBy: { kind: "probe" },
      status: 200,
    });
    expect(turn).toMatchObject({
      path: "/v1/messages?beta=true",
      api: "anthropic",
      answeredBy: { kind: "turn", turn: 1 },
      auth: [{ header: "x-api-key", fingerprint: fingerprint("sk-ant-secret-42") }],
    });
    expect(turn!.headers["x-api-key"]).toBe(`<${fingerprint("sk-ant-secret-42")}>`);
    expect(JSON.stringify(model.requests)).not.toContain("sk-ant-secret-42");
  });
});
