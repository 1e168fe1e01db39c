import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { AgentStepEvent } from "../agent-events";
import { codexErrorCode, parseCodexStream } from "./parse-codex-stream";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const fixture = (name: string) => readFileSync(path.join(HERE, "fixtures", `${name}.stream.jsonl`));

/** Feeds the text in chunks of `size` bytes (cutting lines and characters anywhere). */
const parse = (text: Buffer | string, size = 7) => {
  const events: AgentStepEvent[] = [];
  const parser = parseCodexStream((e) => events.push(e));
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) parser.push(bytes.subarray(i, i + size));
  parser.end();
  return { events, summary: parser.summary };
};

describe("parseCodexStream", () => {
  it("reads a captured run of the six built-ins: session, text, proxy calls and results, usage, the answer", () => {
    const { events, summary } = parse(fixture("six-tools"));
    expect(events[0]).toEqual({
      type: "session",
      sessionId: "01a22e73-c142-72b1-b65e-c2b413cb6d09",
    });
    const uses = events.filter((e) => e.type === "tool_use");
    expect(uses.map((u) => [u.name, u.native ?? false])).toEqual(
      ["Write", "Read", "Edit", "Bash", "Glob", "Grep", "Read"].map((n) => [n, false]),
    );
    expect(uses[0]).toMatchObject({
      id: "item_2",
      arguments: { path: "notes/a.txt", content: "alpha\nbeta\n" },
    });
    const results = events.filter((e) => e.type === "tool_result");
    expect(results.map((r) => r.id)).toEqual(uses.map((u) => u.id));
    expect(results[0]).toEqual({
      type: "tool_result",
      id: "item_2",
      isError: false,
      text: "Wrote 11 bytes to notes/a.txt",
    });
    expect(results[6]).toMatchObject({ isError: true });
    expect(results[6]!.type === "tool_result" && results[6]!.text).toContain(
      "outside the workspace",
    );
    expect(events.filter((e) => e.type === "text")).toEqual([
      { type: "text", text: "Writing the file first." },
      { type: "text", text: "Done: notes/a.txt now says alpha and gamma." },
    ]);
    expect(events.at(-2)).toEqual({
      type: "usage",
      inputTokens: 434010,
      outputTokens: 88,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 0,
      estimated: false,
    });
    expect(events.at(-1)).toEqual({
      type: "final",
      text: "Done: notes/a.txt now says alpha and gamma.",
    });
    expect(events.filter((e) => e.type === "error")).toEqual([]);
    expect(summary.result).toEqual({
      isError: false,
      text: "Done: notes/a.txt now says alpha and gamma.",
    });
    expect(summary.notices).toEqual([
      expect.stringContaining("Model metadata for `gpt-5-codex` not found"),
    ]);
    expect(summary.lastNoise).toEqual([]);
  });

  it("reports a failed turn once, with the API's message and the rejection code", () => {
    const { events, summary } = parse(fixture("rejected"), 3);
    expect(events.filter((e) => e.type === "error")).toEqual([
      {
        type: "error",
        code: "USER.PROVIDER.REQUEST_REJECTED",
        message: "the model request was rejected: scripted rejection",
      },
    ]);
    expect(summary.result?.isError).toBe(true);
    expect(events.some((e) => e.type === "final")).toBe(false);
  });

  it("turns Codex's reconnect notices into retries", () => {
    const { events } = parse(fixture("retry"));
    expect(events.filter((e) => e.type === "retry")).toEqual([
      {
        type: "retry",
        attempt: 1,
        delayMs: 0,
        status: 429,
        message: "Reconnecting... 1/5 (exceeded retry limit, last status: 429 Too Many Requests)",
      },
    ]);
    expect(events.at(-1)).toEqual({ type: "final", text: "ok after retry" });
  });

  it("marks Codex's own commands, file changes and other servers' tools as native, and counts noise", () => {
    const lines = [
      "Warning: not an event",
      {
        type: "item.started",
        item: { id: "c1", type: "command_execution", command: "ls", status: "in_progress" },
      },
      {
        type: "item.completed",
        item: {
          id: "c1",
          type: "command_execution",
          command: "ls",
          aggregated_output: "a\n",
          exit_code: 2,
          status: "failed",
        },
      },
      {
        type: "item.completed",
        item: {
          id: "f1",
          type: "file_change",
          changes: [{ path: "a", kind: "add" }],
          status: "completed",
        },
      },
      {
        type: "item.completed",
        item: {
          id: "m1",
          type: "mcp_tool_call",
          server: "other",
          tool: "x",
          arguments: {},
          result: null,
          error: { message: "boom" },
          status: "failed",
        },
      },
      { type: "item.completed", item: { id: "r1", type: "reasoning", text: "thinking" } },
    ].map((l) => (typeof l === "string" ? l : JSON.stringify(l)));
    const { events, summary } = parse(`${lines.join("\n")}\n`);
    expect(events).toEqual([
      { type: "tool_use", id: "c1", name: "shell", arguments: { command: "ls" }, native: true },
      { type: "tool_result", id: "c1", isError: true, text: "a\n", native: true },
      {
        type: "tool_use",
        id: "f1",
        name: "apply_patch",
        arguments: { changes: [{ path: "a", kind: "add" }] },
        native: true,
      },
      { type: "tool_result", id: "f1", isError: false, text: "completed", native: true },
      { type: "tool_use", id: "m1", name: "mcp__other__x", arguments: {}, native: true },
      { type: "tool_result", id: "m1", isError: true, text: "boom", native: true },
    ]);
    expect(summary.lastNoise).toEqual(["Warning: not an event"]);
    expect(summary.result).toBeUndefined();
  });

  it("codes failures by what Codex says of them", () => {
    expect(codexErrorCode("exceeded retry limit, last status: 503 Service Unavailable")).toBe(
      "EXECUTION.PROVIDER.UNAVAILABLE",
    );
    expect(codexErrorCode('{"error":{"message":"bad key","type":"invalid_request_error"}}')).toBe(
      "USER.PROVIDER.REQUEST_REJECTED",
    );
    expect(codexErrorCode("something else broke")).toBe("EXECUTION.AGENT_FAILED");
  });
});
