import { describe, expect, it } from "vitest";
import { compareAttempts, type ComparedAttempt, type ComparedToolCall } from "./compare";

const call = (tool: string, args: unknown, result: unknown = "ok"): ComparedToolCall => ({
  tool,
  arguments: args,
  result,
  isError: false,
  replay: null,
});

const attempt = (overrides: Partial<ComparedAttempt>): ComparedAttempt => ({
  id: "s1",
  runId: "r1",
  stateName: "fix",
  status: "succeeded",
  output: "done",
  provider: "claude",
  agentVersion: "2.0.1",
  model: "sonnet",
  inputTokens: 100,
  outputTokens: 20,
  costUsd: 0.0123,
  durationMs: 4000,
  toolCalls: [],
  ...overrides,
});

describe("compareAttempts", () => {
  it("matches the same calls (arguments in any key order) and the same answer", () => {
    const a = attempt({
      toolCalls: [call("Read", { path: "a.txt", limit: 10 }), call("Bash", { command: "ls" })],
    });
    const b = attempt({
      id: "s2",
      toolCalls: [
        { ...call("Read", { limit: 10, path: "a.txt" }), replay: "recorded" },
        { ...call("Bash", { command: "ls" }), replay: "recorded" },
      ],
    });
    const compared = compareAttempts(a, b);
    expect(compared.match).toBe(true);
    expect(compared.firstDivergence).toBeNull();
    expect(compared.calls.map((row) => [row.a?.position, row.b?.position, row.sameCall])).toEqual([
      [0, 0, true],
      [1, 1, true],
    ]);
    expect(compared.calls[1]?.b?.replay).toBe("recorded");
  });

  it("marks the first divergence and diffs the paired call's arguments and result", () => {
    const a = attempt({
      toolCalls: [
        call("Read", { path: "a.txt" }),
        call("Edit", { path: "a.txt", edits: [{ old: "x", new: "y" }] }, { changed: 1 }),
        call("Bash", { command: "npm test" }),
      ],
    });
    const b = attempt({
      toolCalls: [
        call("Read", { path: "a.txt" }),
        call("Edit", { path: "a.txt", edits: [{ old: "x", new: "z" }] }, { changed: 2 }),
        call("Bash", { command: "npm test" }),
      ],
    });
    const compared = compareAttempts(a, b);
    expect(compared.match).toBe(false);
    expect(compared.sameSequence).toBe(false);
    expect(compared.sameAnswer).toBe(true);
    expect(compared.firstDivergence).toBe(1);
    const row = compared.calls[1];
    expect(row?.sameCall).toBe(false);
    expect(row?.arguments).toEqual([{ path: "$.edits[0].new", kind: "changed", a: "y", b: "z" }]);
    expect(row?.result).toEqual([{ path: "$.changed", kind: "changed", a: 1, b: 2 }]);
    // the sequences meet again after the change
    expect(compared.calls[2]?.sameCall).toBe(true);
  });

  it("lines up an extra call on one side and goes on matching after it", () => {
    const a = attempt({
      toolCalls: [call("Read", { path: "a" }), call("Bash", { command: "ls" })],
    });
    const b = attempt({
      toolCalls: [
        call("Read", { path: "a" }),
        call("Glob", { pattern: "*.ts" }),
        call("Bash", { command: "ls" }),
      ],
    });
    const compared = compareAttempts(a, b);
    expect(compared.firstDivergence).toBe(1);
    expect(compared.calls.map((row) => [row.a?.tool ?? null, row.b?.tool ?? null])).toEqual([
      ["Read", "Read"],
      [null, "Glob"],
      ["Bash", "Bash"],
    ]);
    expect(compared.calls[1]?.arguments).toEqual([]);
  });

  it("sees a same call with another result as the same sequence", () => {
    const compared = compareAttempts(
      attempt({ toolCalls: [call("Read", { path: "a" }, "one")] }),
      attempt({ toolCalls: [call("Read", { path: "a" }, "two")] }),
    );
    expect(compared.sameSequence).toBe(true);
    expect(compared.calls[0]?.sameResult).toBe(false);
    expect(compared.calls[0]?.result).toEqual([{ path: "$", kind: "changed", a: "one", b: "two" }]);
  });

  it("diffs the answer by line and gives the deltas of tokens, cost and duration", () => {
    const compared = compareAttempts(
      attempt({ output: "line one\nline two\nend", costUsd: 0.1, durationMs: 1000 }),
      attempt({
        output: "line one\nline 2\nend",
        inputTokens: 150,
        outputTokens: null,
        costUsd: 0.3,
        durationMs: 2500,
        model: "opus",
      }),
    );
    expect(compared.match).toBe(false);
    expect(compared.sameAnswer).toBe(false);
    expect(compared.answer.lines).toEqual([
      { kind: "context", text: "line one", oldLine: 1, newLine: 1 },
      { kind: "del", text: "line two", oldLine: 2 },
      { kind: "add", text: "line 2", newLine: 2 },
      { kind: "context", text: "end", oldLine: 3, newLine: 3 },
    ]);
    expect(compared.inputTokens).toEqual({ a: 100, b: 150, delta: 50 });
    expect(compared.outputTokens).toEqual({ a: 20, b: null, delta: null });
    expect(compared.costUsd.delta).toBe(0.2);
    expect(compared.durationMs.delta).toBe(1500);
    expect(compared.b.model).toBe("opus");
  });

  it("treats a call missing on one side at the end as a divergence", () => {
    const compared = compareAttempts(
      attempt({ toolCalls: [call("Read", { path: "a" }), call("Read", { path: "b" })] }),
      attempt({ toolCalls: [call("Read", { path: "a" })] }),
    );
    expect(compared.firstDivergence).toBe(1);
    expect(compared.calls[1]?.b).toBeNull();
    expect(compared.match).toBe(false);
  });
});
