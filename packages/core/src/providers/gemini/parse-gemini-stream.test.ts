/**
 * parseGeminiStream on Gemini CLI 0.61's own stream-json output, captured from the real CLI
 * against the scripted model (../cli-providers.int.test.ts): six built-ins and a refused
 * escape through the proxy, and a request the model refused; plus chunking, noise, native
 * tools and warnings.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { AgentStepEvent } from "../agent-events";
import { geminiResultCode, geminiResultMessage, parseGeminiStream } from "./parse-gemini-stream";

const fixture = (name: string) =>
  readFileSync(
    path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures", `${name}.stream.jsonl`),
    "utf8",
  );

const parse = (text: string, chunk = text.length) => {
  const events: AgentStepEvent[] = [];
  const parser = parseGeminiStream((e) => events.push(e));
  for (let i = 0; i < text.length; i += chunk) parser.push(Buffer.from(text.slice(i, i + chunk)));
  parser.end();
  return { events, summary: parser.summary };
};

describe("parseGeminiStream", () => {
  it("reads a real run: session, text, seven proxy calls with their results, usage and the answer", () => {
    const { events, summary } = parse(fixture("six-tools"));
    expect(events[0]).toEqual({ type: "session", sessionId: summary.sessionId });
    expect(summary.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(summary.model).toBe("gemini-2.5-flash");
    expect(events[1]).toEqual({ type: "text", text: "Writing the file first." });
    const uses = events.flatMap((e) => (e.type === "tool_use" ? [e] : []));
    expect(uses.map((u) => [u.name, u.native])).toEqual(
      ["Write", "Read", "Edit", "Bash", "Glob", "Grep", "Read"].map((n) => [n, undefined]),
    );
    expect(uses[0]!.arguments).toEqual({ path: "notes/a.txt", content: "alpha\nbeta\n" });
    const results = events.flatMap((e) => (e.type === "tool_result" ? [e] : []));
    expect(results.map((r) => r.id)).toEqual(uses.map((u) => u.id));
    expect(results[0]!.text).toBe("Wrote 11 bytes to notes/a.txt");
    expect(results.map((r) => r.isError)).toEqual([false, false, false, false, false, false, true]);
    // The proxy's own words, not the CLI's wrapper around them.
    expect(results[6]!.text).toMatch(
      /^Read refused: \.\.\/\.\.\/\.\.\/etc\/passwd: outside the workspace/,
    );
    const usage = events.find((e) => e.type === "usage");
    expect(usage).toMatchObject({ type: "usage", estimated: false, cacheReadInputTokens: 0 });
    expect(summary.usage!.inputTokens).toBeGreaterThan(0);
    expect(summary.result).toEqual({ ok: true, message: "" });
    expect(summary.answer).toBe("Done: notes/a.txt now says alpha and gamma.");
    expect(events.at(-1)).toEqual({ type: "final", text: summary.answer });
    expect(summary.toolCalls).toBe(7);
    expect(summary.noiseLines).toBe(0);
  });

  it("reads the same whatever the chunks", () => {
    const text = fixture("six-tools");
    expect(parse(text, 7).events).toEqual(parse(text).events);
  });

  it("reads a refused model request as a failed result with the API's status", () => {
    const { events, summary } = parse(fixture("rejected"));
    expect(summary.result).toMatchObject({ ok: false, errorType: "unknown" });
    expect(summary.result!.message).toContain("scripted rejection");
    expect(geminiResultCode(summary.result!)).toBe("USER.PROVIDER.REQUEST_REJECTED");
    expect(geminiResultMessage(summary.result!)).toBe(
      "the model endpoint answered HTTP 400: scripted rejection",
    );
    expect(events.map((e) => e.type)).toEqual(["session"]);
  });

  it("keeps a failed result's message as it is when it quotes no JSON error body", () => {
    const result = { ok: false, message: "[API Error: got status: 503 Service Unavailable]" };
    expect(geminiResultMessage(result)).toBe(result.message);
    expect(geminiResultMessage({ ok: false, message: '[API Error: {"error":{"code":500}}]' })).toBe(
      '[API Error: {"error":{"code":500}}]',
    );
    expect(
      geminiResultMessage({ ok: false, message: '[API Error: {"error":{"message":"busy"}}]' }),
    ).toBe("the model endpoint said: busy");
  });

  it("reads the turn limit (model.maxSessionTurns) as a failed result after the call it allowed", () => {
    const { events, summary } = parse(fixture("max-turns"));
    expect(events.map((e) => e.type)).toEqual(["session", "tool_use", "tool_result", "usage"]);
    expect(summary.result).toMatchObject({ ok: false, errorType: "FatalTurnLimitedError" });
    expect(geminiResultCode(summary.result!)).toBe("USER.MCP_PROXY.INFINITE_LOOP_GUARD");
  });

  it("codes the turn limit, an unavailable model and an unknown failure", () => {
    expect(
      geminiResultCode({
        ok: false,
        errorType: "FatalTurnLimitedError",
        message: "Reached max session turns",
      }),
    ).toBe("USER.MCP_PROXY.INFINITE_LOOP_GUARD");
    expect(geminiResultCode({ ok: false, message: '[API Error: {"error":{"code":429}}]' })).toBe(
      "EXECUTION.PROVIDER.UNAVAILABLE",
    );
    expect(geminiResultCode({ ok: false, message: '[API Error: {"error":{"code":503}}]' })).toBe(
      "EXECUTION.PROVIDER.UNAVAILABLE",
    );
    expect(geminiResultCode({ ok: false, message: "something broke" })).toBe(
      "EXECUTION.AGENT_FAILED",
    );
  });

  it("marks tools that are not the proxy's as native, keeps warnings, and counts noise", () => {
    const lines = [
      "Loaded cached credentials.",
      JSON.stringify({
        type: "tool_use",
        tool_name: "run_shell_command",
        tool_id: "t1",
        parameters: { command: "ls" },
      }),
      JSON.stringify({ type: "tool_result", tool_id: "t1", status: "success", output: "a.txt" }),
      JSON.stringify({ type: "error", severity: "warning", message: "Loop detected" }),
      JSON.stringify({ type: "message", role: "assistant", content: "Half", delta: true }),
      JSON.stringify({ type: "message", role: "assistant", content: " done.", delta: true }),
    ];
    const { events, summary } = parse(`${lines.join("\n")}\n`);
    expect(events).toEqual([
      {
        type: "tool_use",
        id: "t1",
        name: "run_shell_command",
        arguments: { command: "ls" },
        native: true,
      },
      { type: "tool_result", id: "t1", isError: false, text: "a.txt", native: true },
      { type: "text", text: "Half done." },
    ]);
    expect(summary.result).toBeUndefined();
    expect(summary.answer).toBe("Half done.");
    expect(summary.warnings).toEqual(["warning: Loop detected"]);
    expect(summary.noiseLines).toBe(1);
    expect(summary.lastNoise).toEqual(["Loaded cached credentials."]);
  });
});
