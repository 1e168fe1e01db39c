import { describe, expect, it } from "vitest";
import { foldAgentEvents, formatCost, jsonPreview, toolErrorSummary } from "./agent-transcript";

const events = (...list: object[]) =>
  list.map((event, i) => ({ seq: i + 1, at: new Date(0), event })) as Parameters<
    typeof foldAgentEvents
  >[0];

describe("foldAgentEvents", () => {
  it("joins text that arrives in pieces into messages, each ended by any other event", () => {
    const t = foldAgentEvents(
      events(
        { type: "text", text: "Let me " },
        { type: "text", text: "look." },
        { type: "usage", inputTokens: 100, outputTokens: 20, estimated: false },
        { type: "text", text: "Now the file." },
        { type: "usage", inputTokens: 150, outputTokens: 10, estimated: false },
      ),
    );
    expect(t.messages).toEqual(["Let me look.", "Now the file."]);
    expect(t.usage).toEqual({ inputTokens: 250, outputTokens: 30, estimated: false });
    expect(t.final).toBeNull();
  });

  it("shows the answer once: the last message is dropped when it is the final answer", () => {
    const t = foldAgentEvents(
      events(
        { type: "text", text: "Working." },
        { type: "usage", inputTokens: 1, outputTokens: 1, estimated: true },
        { type: "text", text: "All " },
        { type: "text", text: "done." },
        { type: "usage", inputTokens: 1, outputTokens: 1, estimated: false },
        { type: "final", text: "All done.", turns: 2 },
      ),
    );
    expect(t.messages).toEqual(["Working."]);
    expect(t.final).toBe("All done.");
    expect(t.usage?.estimated).toBe(true);
  });

  it("keeps retries and errors", () => {
    const t = foldAgentEvents(
      events(
        { type: "retry", attempt: 1, delayMs: 500, status: 429, message: "rate limited" },
        { type: "error", code: "EXECUTION.TIMEOUT", message: "took too long" },
      ),
    );
    expect(t.retries).toEqual([{ attempt: 1, delayMs: 500, status: 429, message: "rate limited" }]);
    expect(t.errors).toEqual([{ code: "EXECUTION.TIMEOUT", message: "took too long" }]);
    expect(t.usage).toBeNull();
    expect(t.messages).toEqual([]);
  });
});

describe("toolErrorSummary", () => {
  it("is the first line of the result's text", () => {
    expect(
      toolErrorSummary({
        content: [{ type: "text", text: "path is outside the workspace\nmore" }],
        isError: true,
      }),
    ).toBe("path is outside the workspace");
    expect(toolErrorSummary(null)).toBeNull();
    expect(toolErrorSummary({ content: [{ type: "image", data: "x" }] })).toBeNull();
    expect(toolErrorSummary({ content: [{ type: "text", text: "x".repeat(500) }] })).toHaveLength(
      201,
    );
  });
});

describe("jsonPreview", () => {
  it("pretty-prints, and cuts what is long", () => {
    expect(jsonPreview({ a: 1 }, 100)).toEqual({ text: '{\n  "a": 1\n}', cut: false });
    expect(jsonPreview(undefined, 100)).toEqual({ text: "null", cut: false });
    const long = jsonPreview({ text: "y".repeat(300) }, 100);
    expect(long.cut).toBe(true);
    expect(long.text).toHaveLength(100);
  });
});

describe("formatCost", () => {
  it("is dollars with four decimals", () => {
    expect(formatCost(0.012345)).toBe("$0.0123");
    expect(formatCost(0)).toBe("$0.0000");
    expect(formatCost(null)).toBe("–");
  });
});
