/**
 * The stream parser on real output: each fixture is Claude Code 2.1.332's stdout (`-p
 * --output-format stream-json --verbose`) against the scripted model, captured as is:
 * - six-tools: the script six-tools.script.json through `switchyard mcp-serve` (all six
 *   built-ins, then an escape the proxy refuses, then the answer);
 * - native-denied: native-denied.script.json with Claude's own tools on (a native Bash the
 *   CLI refuses, a native Glob it does not have);
 * - api-error: every model request answered 400; max-turns: `--max-turns 1` against a tool
 *   call; retry: a 529 then an answer.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { AgentStepEvent } from "../agent-events";
import { parseClaudeStream, type ClaudeStreamParser } from "./parse-claude-stream";

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
const fixture = (name: string) => readFileSync(path.join(FIXTURES, `${name}.stream.jsonl`));

const parse = (feed: (parser: ClaudeStreamParser) => void) => {
  const events: AgentStepEvent[] = [];
  const parser = parseClaudeStream((e) => events.push(e));
  feed(parser);
  parser.end();
  return { events, summary: parser.summary };
};

const whole = (name: string) => parse((p) => p.push(fixture(name)));

/** The same bytes in chunks of `size`, so lines and UTF-8 characters split anywhere. */
const chunked = (name: string, size: number) =>
  parse((p) => {
    const bytes = fixture(name);
    for (let i = 0; i < bytes.length; i += size) p.push(bytes.subarray(i, i + size));
  });

const of = <T extends AgentStepEvent["type"]>(events: AgentStepEvent[], type: T) =>
  events.filter((e): e is Extract<AgentStepEvent, { type: T }> => e.type === type);

describe("parseClaudeStream", () => {
  it("reads a session through the proxy: session, text, six tool calls with results, the refused escape, usage, cost, final", () => {
    const { events, summary } = whole("six-tools");
    expect(events[0]).toEqual({
      type: "session",
      sessionId: "d0e49360-b5b3-464a-8218-5b198153fa12",
    });
    expect(of(events, "session")).toHaveLength(1);
    expect(of(events, "text").map((e) => e.text)).toEqual([
      "I will write the file first.",
      "Done: notes/a.txt now says alpha and gamma.",
    ]);

    const uses = of(events, "tool_use");
    expect(uses.map((u) => u.name)).toEqual([
      "Write",
      "Read",
      "Edit",
      "Bash",
      "Glob",
      "Grep",
      "Read",
    ]);
    expect(uses.every((u) => u.native === undefined)).toBe(true);
    expect(uses[0]).toEqual({
      type: "tool_use",
      id: "toolu_scripted_1_0",
      name: "Write",
      arguments: { path: "notes/a.txt", content: "alpha\nbeta\n" },
    });
    const results = of(events, "tool_result");
    expect(results.map((r) => r.id)).toEqual(uses.map((u) => u.id));
    expect(results[0]).toEqual({
      type: "tool_result",
      id: "toolu_scripted_1_0",
      isError: false,
      text: "Wrote 11 bytes to notes/a.txt",
    });
    expect(results[5]!.text).toBe("notes/a.txt:2:gamma");
    expect(results[6]).toMatchObject({ isError: true });
    expect(results[6]!.text).toContain("outside the workspace");
    expect(results.slice(0, 6).every((r) => !r.isError)).toBe(true);

    expect(of(events, "usage")).toEqual([
      {
        type: "usage",
        inputTokens: 27187,
        outputTokens: 123,
        cacheCreationInputTokens: 0,
        cacheReadInputTokens: 0,
        estimated: false,
      },
    ]);
    expect(of(events, "cost")).toEqual([
      { type: "cost", usd: 0.11120799999999999, source: "cli_estimate" },
    ]);
    expect(events.at(-1)).toEqual({
      type: "final",
      text: "Done: notes/a.txt now says alpha and gamma.",
      subtype: "success",
      turns: 8,
    });
    expect(of(events, "error")).toEqual([]);
    expect(summary.result).toMatchObject({
      isError: false,
      subtype: "success",
      turns: 8,
      terminalReason: "completed",
    });
    expect(summary.noiseLines).toBe(0);
  });

  it("gives the same events whatever the chunking, down to single bytes inside a UTF-8 character", () => {
    for (const name of ["six-tools", "native-denied"]) {
      const reference = whole(name).events;
      for (const size of [1, 7, 64, 4096]) expect(chunked(name, size).events).toEqual(reference);
    }
    expect(JSON.stringify(whole("native-denied").events)).toContain("—");
  });

  it("flags the CLI's own tool calls as native, and reports a denial once, live and from the result", () => {
    const { events, summary } = whole("native-denied");
    const uses = of(events, "tool_use");
    expect(uses.map((u) => [u.name, u.native])).toEqual([
      ["Bash", true],
      ["Glob", true],
    ]);
    expect(uses[0]!.arguments).toEqual({ command: "echo hi > x.txt", description: "write x" });
    const results = of(events, "tool_result");
    expect(results.map((r) => [r.id, r.isError, r.native])).toEqual([
      ["toolu_scripted_1_0", true, true],
      ["toolu_scripted_2_0", true, true],
    ]);
    const errors = of(events, "error");
    expect(errors).toHaveLength(1);
    expect(errors[0]!.code).toBe("EXECUTION.AGENT_PERMISSION_DENIED");
    expect(errors[0]!.message).toContain("Bash");
    // The CLI reported success: the denial is an event, the answer stands.
    expect(events.at(-1)).toMatchObject({ type: "final", text: "I could not run Bash." });
    expect(summary.result?.isError).toBe(false);
  });

  it("turns an API error result into an error event with the model's code, and no text from the synthetic message", () => {
    const { events, summary } = whole("api-error");
    expect(of(events, "text")).toEqual([]);
    expect(of(events, "final")).toEqual([]);
    const errors = of(events, "error");
    expect(errors).toHaveLength(1);
    expect(errors[0]!.code).toBe("USER.PROVIDER.REQUEST_REJECTED");
    expect(errors[0]!.message).toMatch(/^API Error: 400/);
    expect(summary.result).toMatchObject({
      isError: true,
      apiErrorStatus: 400,
      terminalReason: "api_error",
    });
  });

  it("reports hitting max turns as the loop guard, with the CLI's own words", () => {
    const { events } = whole("max-turns");
    expect(of(events, "error")).toEqual([
      {
        type: "error",
        code: "USER.MCP_PROXY.INFINITE_LOOP_GUARD",
        message: "Reached maximum number of turns (1)",
      },
    ]);
  });

  it("reports the CLI's retries", () => {
    const { events } = whole("retry");
    expect(of(events, "retry")).toEqual([
      { type: "retry", attempt: 1, delayMs: 507, status: 529, message: "overloaded" },
    ]);
    expect(events.at(-1)).toMatchObject({ type: "final", text: "Recovered." });
  });

  it("counts and skips noise lines, reads a last line without newline, and skips an overlong line", () => {
    const events: AgentStepEvent[] = [];
    const parser = parseClaudeStream((e) => events.push(e), { maxLineChars: 200 });
    parser.push("Warning: something on stdout\n[1,2]\n");
    parser.push(
      `{"type":"assistant","message":{"content":[{"type":"text","text":"${"x".repeat(200)}"}]}}\n`,
    );
    parser.push(
      `{"type":"assistant","message":{"content":[{"type":"text","text":"${"y".repeat(150)}`,
    );
    parser.push(`${"y".repeat(150)}"}]}}\n`);
    parser.push(
      '{"type":"system","subtype":"init","session_id":"s1","mcp_servers":[{"name":"switchyard","status":"failed"}]}\n',
    );
    parser.push(
      '{"type":"result","subtype":"success","is_error":false,"result":"ok","num_turns":1}',
    );
    parser.end();
    expect(parser.summary.noiseLines).toBe(4);
    expect(parser.summary.lastNoise[0]).toBe("Warning: something on stdout");
    expect(parser.summary.lastNoise.slice(2).every((l) => l.endsWith("characters, skipped)"))).toBe(
      true,
    );
    expect(events).toEqual([
      { type: "session", sessionId: "s1" },
      {
        type: "error",
        code: "EXECUTION.MCP_PROXY.UNAVAILABLE",
        message: "Claude Code's MCP server switchyard (the step's proxy) is failed",
      },
      { type: "final", text: "ok", subtype: "success", turns: 1 },
    ]);
  });

  it("joins tool result blocks and names blocks that are not text", () => {
    const { events } = parse((p) =>
      p.push(
        '{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"a"},{"type":"image","source":{}},{"type":"text","text":"b"}]}]}}\n',
      ),
    );
    expect(events).toEqual([
      { type: "tool_result", id: "t1", isError: false, text: "a\n[image]\nb" },
    ]);
  });
});
