/**
 * How the scripted model plays a script whatever the API: unmet expectations, an exhausted
 * script and unknown endpoints answer at once with a clear error and are recorded as
 * failures; rules answer requests that are not turns; error turns carry their status and
 * headers; bad scripts fail at load time naming where. Real HTTP on loopback, and the bin.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { parseScript } from "./script";
import { startScriptedModel, type ScriptedModel } from "./scripted-model";

let model: ScriptedModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

const anthropic = (url: string, body: Record<string, unknown>) =>
  fetch(`${url}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "k" },
    body: JSON.stringify({
      model: "m",
      max_tokens: 10,
      messages: [{ role: "user", content: "hi" }],
      ...body,
    }),
  });
const chat = (url: string, body: Record<string, unknown>) =>
  fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }], ...body }),
  });

describe("script playback", () => {
  it("plays each conversation from its own place with turnBy conversation, however many go at once", async () => {
    model = await startScriptedModel({
      script: [{ text: "first" }, { text: "second" }],
      turnBy: "conversation",
      keepRequests: false,
    });
    const text = async (res: Response) =>
      ((await res.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message
        .content;
    const opening = [{ role: "user", content: "hi" }];
    const followUp = [
      ...opening,
      { role: "assistant", content: "first" },
      { role: "user", content: "and?" },
    ];
    expect(await text(await chat(model.url, { messages: opening }))).toBe("first");
    expect(await text(await chat(model.url, { messages: opening }))).toBe("first");
    expect(await text(await chat(model.url, { messages: followUp }))).toBe("second");
    const past = await chat(model.url, {
      messages: [
        ...followUp,
        { role: "assistant", content: "second" },
        { role: "user", content: "more" },
      ],
    });
    expect(past.status).toBe(400);
    expect(model.requests).toEqual([]);
    expect(model.failures).toEqual([]);
  });

  it("answers a failed expectation with HTTP 400 naming the turn and what was expected, and records it", async () => {
    model = await startScriptedModel({
      script: [
        {
          label: "after the write",
          text: "ok",
          expect: {
            lastToolResultContains: "Wrote 12 bytes",
            toolOffered: "mcp__switchyard__Read",
          },
        },
      ],
    });
    const res = await anthropic(model.url, { tools: [{ name: "mcp__switchyard__Write" }] });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { type: string; error: { type: string; message: string } };
    expect(body.type).toBe("error");
    expect(body.error.type).toBe("scripted_model_assertion");
    expect(body.error.message).toContain("turn 1 (after the write)");
    expect(body.error.message).toContain(
      'expected tool "mcp__switchyard__Read" to be offered; offered: [mcp__switchyard__Write]',
    );
    expect(body.error.message).toContain(
      'expected the last tool result to contain "Wrote 12 bytes"; the request carries no tool result',
    );
    expect(model.failures).toEqual([
      { kind: "assertion", request: 1, turn: 1, message: body.error.message },
    ]);
  });

  it("answers a request past the last turn with an immediate error, in the API's error format", async () => {
    model = await startScriptedModel({ script: [{ text: "only one" }] });
    expect((await chat(model.url, {})).status).toBe(200);
    const res = await chat(model.url, { stream: true });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe("scripted_model_exhausted");
    expect(body.error.message).toContain("has 1 turns, this would be turn 2");
    expect(model.failures.map((f) => f.kind)).toEqual(["exhausted"]);
  });

  it("answers requests matched by rules without consuming a turn, and a rule's `times` runs out", async () => {
    model = await startScriptedModel({
      script: {
        turns: [{ toolCalls: [{ name: { suffix: "Read" }, arguments: {} }] }, { text: "second" }],
        rules: [
          { match: { noTools: true, api: "openai-chat" }, text: "A title", times: 1 },
          { match: { path: "/v1/messages/count_tokens" }, json: { input_tokens: 12 } },
        ],
      },
    });
    const title = (await (await chat(model.url, {})).json()) as {
      choices: { message: { content: string } }[];
    };
    expect(title.choices[0]!.message.content).toBe("A title");
    const counted = await fetch(`${model.url}/v1/messages/count_tokens`, {
      method: "POST",
      body: "{}",
    });
    expect(await counted.json()).toEqual({ input_tokens: 12 });
    const turn = (await (
      await chat(model.url, { tools: [{ type: "function", function: { name: "opencode_Read" } }] })
    ).json()) as {
      choices: { message: { tool_calls: { function: { name: string } }[] } }[];
    };
    expect(turn.choices[0]!.message.tool_calls[0]!.function.name).toBe("opencode_Read");
    // The title rule answered once; a second request without tools is the next turn.
    const second = (await (await chat(model.url, {})).json()) as {
      choices: { message: { content: string } }[];
    };
    expect(second.choices[0]!.message.content).toBe("second");
    expect(model.requests.map((r) => r.answeredBy)).toEqual([
      { kind: "rule", rule: 0 },
      { kind: "rule", rule: 1 },
      { kind: "turn", turn: 1 },
      { kind: "turn", turn: 2 },
    ]);
    expect(model.failures).toEqual([]);
  });

  it("answers an unknown endpoint with 404 and records it", async () => {
    model = await startScriptedModel({ script: [{ text: "x" }] });
    const res = await fetch(`${model.url}/api/oauth/usage`);
    expect(res.status).toBe(404);
    expect(model.failures).toMatchObject([
      {
        kind: "unknown_endpoint",
        message: expect.stringContaining("GET /api/oauth/usage") as string,
      },
    ]);
    expect(model.turnsLeft).toBe(1);
  });

  it("plays an error turn with its status and Retry-After, then the next turn on the retry", async () => {
    model = await startScriptedModel({
      script: [
        { error: { status: 429, headers: { "retry-after": "0" }, message: "slow down" } },
        { text: "after retry", delayMs: 20 },
      ],
    });
    const limited = await anthropic(model.url, {});
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("0");
    expect(await limited.json()).toEqual({
      type: "error",
      error: { type: "rate_limit_error", message: "slow down" },
    });
    const retried = await anthropic(model.url, {});
    expect(await retried.json()).toMatchObject({
      content: [{ type: "text", text: "after retry" }],
    });
    expect(model.failures).toEqual([]);
  });

  it("fails a turn whose tool suffix matches no offered tool, or several", async () => {
    model = await startScriptedModel({
      script: [
        { toolCalls: [{ name: { suffix: "Write" }, arguments: {} }] },
        { toolCalls: [{ name: { regex: "Read$" }, arguments: {} }] },
      ],
    });
    const none = await anthropic(model.url, { tools: [{ name: "mcp__s__Rewrite" }] });
    expect(none.status).toBe(400);
    const both = await anthropic(model.url, { tools: [{ name: "a__Read" }, { name: "b__Read" }] });
    expect(both.status).toBe(400);
    expect(model.failures.map((f) => [f.kind, f.turn, f.message])).toEqual([
      [
        "tool_name",
        1,
        'scripted model: turn 1: no offered tool matches suffix "Write"; offered: [mcp__s__Rewrite]',
      ],
      [
        "tool_name",
        2,
        "scripted model: turn 2: regex /Read$/ is ambiguous: it matches a__Read, b__Read",
      ],
    ]);
  });
});

describe("script validation", () => {
  it("rejects unknown keys and empty turns, naming where", () => {
    expect(() => parseScript([{ text: "a" }, { txt: "b" }], "s.json")).toThrow(
      expect.objectContaining({
        code: "USER.INPUT.VALIDATION_FAILED",
        location: { file: "s.json", path: "turns.1" },
      }),
    );
    expect(() => parseScript({ turns: [{}] })).toThrow(/turns\.0: needs text, toolCalls or error/);
    expect(() => parseScript({ turns: [], rules: [{ match: {}, text: "x" }] })).toThrow(
      /rules\.0\.match: a rule needs at least one condition/,
    );
    expect(() => parseScript({ turns: [{ toolCalls: [{ name: { regex: "(" } }] }] })).toThrow(
      /not a valid regular expression/,
    );
  });
});

describe("the scripted-model bin", () => {
  it("serves a script file, prints its URL, logs requests and exits 1 after a failure", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "scripted-model-"));
    try {
      const file = path.join(dir, "script.json");
      await writeFile(file, JSON.stringify({ turns: [{ text: "hello from the bin" }] }));
      const bin = fileURLToPath(new URL("../bin/scripted-model.mjs", import.meta.url));
      const child = spawn(process.execPath, [bin, "--script", file, "--port", "0"], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", (c: Buffer) => {
          stdout += c.toString();
          if (stdout.includes("\n")) resolve(stdout.trim());
        });
        child.once("exit", (code) => reject(new Error(`exited ${code}: ${stderr}`)));
      });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await (await chat(url, {})).json()).toMatchObject({
        choices: [{ message: { content: "hello from the bin" } }],
      });
      expect((await chat(url, {})).status).toBe(400);
      child.kill("SIGTERM");
      expect(await exited).toBe(1);
      expect(stderr).toContain(
        'POST /v1/chat/completions openai-chat -> turn 1: text "hello from the bin"',
      );
      expect(stderr).toContain("1 failures");
      expect(stderr).toContain("exhausted:");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses a script file that is not valid, naming the file", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "scripted-model-"));
    try {
      const file = path.join(dir, "bad.json");
      await writeFile(file, JSON.stringify({ turns: [{ text: "a", toolcalls: [] }] }));
      const bin = fileURLToPath(new URL("../bin/scripted-model.mjs", import.meta.url));
      const child = spawn(process.execPath, [bin, "--script", file], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
      expect(await new Promise((resolve) => child.once("exit", resolve))).toBe(1);
      expect(stderr).toContain(
        `[USER.INPUT.VALIDATION_FAILED] ${file}: invalid model script: turns.0`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
