import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { AgentStepEvent } from "../agent-events";
import { parseOpencodeStream } from "./parse-opencode-stream";

const fixture = (name: string) =>
  readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures", name), "utf8");

const parse = (text: string, chunk = text.length) => {
  const events: AgentStepEvent[] = [];
  const parser = parseOpencodeStream((e) => events.push(e));
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += chunk) parser.push(bytes.subarray(i, i + chunk));
  parser.end();
  return { events, summary: parser.summary };
};

describe("parseOpencodeStream", () => {
  // Captured from OpenCode 1.18.33 against the scripted model: Write, Bash, a refused Read, the answer.
  it("reads a captured run into the session, text, proxied tool calls with results, usage per request and the answer", () => {
    const { events, summary } = parse(fixture("tools.stream.jsonl"));
    expect(events.filter((e) => e.type === "session")).toEqual([
      { type: "session", sessionId: "ses_dd19909a5ffeR6tuUR47eiLUFc" },
    ]);
    expect(events.filter((e) => e.type === "tool_use")).toEqual([
      {
        type: "tool_use",
        id: "call_scripted_1_0",
        name: "Write",
        arguments: { path: "notes/a.txt", content: "alpha\nbeta\n" },
      },
      {
        type: "tool_use",
        id: "call_scripted_2_0",
        name: "Bash",
        arguments: { command: "cat notes/a.txt" },
      },
      {
        type: "tool_use",
        id: "call_scripted_3_0",
        name: "Read",
        arguments: { path: "../../../etc/passwd" },
      },
    ]);
    const results = events.filter((e) => e.type === "tool_result");
    expect(results.map((r) => [r.id, r.isError])).toEqual([
      ["call_scripted_1_0", false],
      ["call_scripted_2_0", false],
      ["call_scripted_3_0", true],
    ]);
    expect(results[0]).toMatchObject({ text: "Wrote 11 bytes to notes/a.txt" });
    expect(results[2]!.type === "tool_result" && results[2]!.text).toContain(
      "outside the workspace",
    );
    expect(events.filter((e) => e.type === "usage")).toHaveLength(4);
    expect(events.filter((e) => e.type === "text").map((e) => e.type === "text" && e.text)).toEqual(
      ["Writing.", "All done."],
    );
    expect(events.filter((e) => e.type === "cost")).toEqual([]);
    expect(events.at(-1)).toEqual({ type: "final", text: "All done.", turns: 4, subtype: "stop" });
    expect(summary).toMatchObject({
      result: { isError: false, text: "All done.", reason: "stop" },
      usage: { inputTokens: 1464 + 1541 + 1610 + 1696, outputTokens: 18 + 11 + 12 + 3 },
      turns: 4,
      noiseLines: 0,
    });
  });

  it("gives the same events whatever the chunking, a character split included", () => {
    const text = fixture("tools.stream.jsonl").replace("Writing.", "Writing… ✓");
    expect(parse(text, 7).events).toEqual(parse(text).events);
  });

  it("reads a rejected model request as an error result with the request's code", () => {
    const { events, summary } = parse(fixture("rejected.stream.jsonl"));
    expect(events.filter((e) => e.type !== "session")).toEqual([
      { type: "error", code: "USER.PROVIDER.REQUEST_REJECTED", message: "scripted rejection" },
    ]);
    expect(summary.result).toEqual({
      isError: true,
      code: "USER.PROVIDER.REQUEST_REJECTED",
      message: "scripted rejection",
    });
  });

  it("codes an unavailable model as retryable trouble, marks native tools, counts cache tokens and a cost, and keeps noise", () => {
    const lines = [
      "npm warn offline",
      JSON.stringify({
        type: "tool_use",
        sessionID: "s1",
        part: {
          tool: "bash",
          callID: "c1",
          messageID: "m1",
          state: { status: "error", input: { command: "ls" }, error: "permission denied: bash" },
        },
      }),
      JSON.stringify({
        type: "step_finish",
        sessionID: "s1",
        part: {
          messageID: "m1",
          reason: "tool-calls",
          cost: 0.25,
          tokens: { input: 10, output: 2, reasoning: 3, cache: { read: 5, write: 1 } },
        },
      }),
      JSON.stringify({
        type: "error",
        sessionID: "s1",
        error: {
          name: "APIError",
          data: { message: "overloaded", statusCode: 529, isRetryable: true },
        },
      }),
    ].join("\n");
    const { events, summary } = parse(lines);
    expect(events).toEqual([
      { type: "session", sessionId: "s1" },
      { type: "tool_use", id: "c1", name: "bash", arguments: { command: "ls" }, native: true },
      {
        type: "tool_result",
        id: "c1",
        isError: true,
        text: "permission denied: bash",
        native: true,
      },
      {
        type: "error",
        code: "EXECUTION.AGENT_PERMISSION_DENIED",
        message: "OpenCode refused to run bash: permission denied: bash",
      },
      {
        type: "usage",
        inputTokens: 16,
        outputTokens: 5,
        estimated: false,
        cacheCreationInputTokens: 1,
        cacheReadInputTokens: 5,
      },
      { type: "error", code: "EXECUTION.PROVIDER.UNAVAILABLE", message: "overloaded" },
    ]);
    expect(summary).toMatchObject({
      costUsd: 0.25,
      noiseLines: 1,
      lastNoise: ["npm warn offline"],
      turns: 1,
    });
  });
});
