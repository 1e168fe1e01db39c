import { describe, expect, it } from "vitest";
import { scopeUnion, stepUpDecision } from "./scope-step-up";

describe("scope step-up", () => {
  it("unites scope strings without repeating a scope", () => {
    expect(scopeUnion("a b", undefined, "b  c", null, "")).toBe("a b c");
  });

  it("asks again with the union when the server wants a scope not asked for before", () => {
    expect(stepUpDecision("mcp:basic mcp:write", { requested: "mcp:basic" })).toEqual({
      kind: "reauthorize",
      scope: "mcp:basic mcp:write",
    });
    expect(stepUpDecision("write", { requested: "read", granted: "read profile" })).toEqual({
      kind: "reauthorize",
      scope: "read profile write",
    });
  });

  it("refuses a second authorization for a scope already asked for (the retry limit)", () => {
    expect(stepUpDecision("mcp:admin", { requested: "mcp:admin" })).toEqual({ kind: "refused" });
    expect(stepUpDecision("a b", { requested: "a", granted: "b" })).toEqual({ kind: "refused" });
    // A challenge naming no scope gives nothing to ask for.
    expect(stepUpDecision(undefined, { requested: "a" })).toEqual({ kind: "refused" });
  });
});
