import { describe, expect, it } from "vitest";
import { ALL_LANES } from "../policy";
import { toolAllowed, type LaneScope } from "./tool-allow";

const scope = (over: Partial<LaneScope> = {}): LaneScope => ({
  id: "tracker",
  lanes: ["default", "operator"],
  enabled: true,
  tool_allow: {},
  ...over,
});

describe("toolAllowed", () => {
  it("allows every tool when there is no rule", () => {
    expect(toolAllowed(scope(), "default", "delete_issue")).toBe(true);
  });

  it("denies every tool to a lane the connector does not reach, or when it is disabled", () => {
    expect(toolAllowed(scope(), "review", "get_issue")).toBe(false);
    expect(toolAllowed(scope({ enabled: false }), "default", "get_issue")).toBe(false);
    expect(toolAllowed(scope({ lanes: [ALL_LANES] }), "review", "get_issue")).toBe(true);
  });

  it("applies a deny rule for every lane", () => {
    const c = scope({ tool_allow: { "*": { deny: ["delete_*", "merge_pull_request"] } } });
    expect(toolAllowed(c, "default", "delete_issue")).toBe(false);
    expect(toolAllowed(c, "operator", "delete_issue")).toBe(false);
    expect(toolAllowed(c, "default", "merge_pull_request")).toBe(false);
    expect(toolAllowed(c, "default", "get_issue")).toBe(true);
    // anchored: a pattern matches the whole name, never a part of it
    expect(toolAllowed(c, "default", "undelete_issue")).toBe(true);
    expect(toolAllowed(c, "default", "merge_pull_request_review")).toBe(true);
  });

  it("applies a lane's own rule to that lane only, on top of the rule for every lane", () => {
    const c = scope({
      tool_allow: {
        "*": { deny: ["delete_*"] },
        default: { allow: ["get_*", "list_*", "search_*"] },
      },
    });
    expect(toolAllowed(c, "default", "get_issue")).toBe(true);
    expect(toolAllowed(c, "default", "create_issue")).toBe(false);
    expect(toolAllowed(c, "operator", "create_issue")).toBe(true);
    expect(toolAllowed(c, "operator", "delete_issue")).toBe(false);
  });

  it("lets a deny win over an allow", () => {
    const c = scope({ tool_allow: { default: { allow: ["*_issue"], deny: ["delete_*"] } } });
    expect(toolAllowed(c, "default", "get_issue")).toBe(true);
    expect(toolAllowed(c, "default", "delete_issue")).toBe(false);
  });

  it("needs a tool to pass every allow list that applies: a lane's list narrows the one for every lane", () => {
    const c = scope({
      tool_allow: { "*": { allow: ["get_*", "list_*"] }, default: { allow: ["list_*"] } },
    });
    expect(toolAllowed(c, "default", "list_issues")).toBe(true);
    expect(toolAllowed(c, "default", "get_issue")).toBe(false);
    expect(toolAllowed(c, "operator", "get_issue")).toBe(true);
  });

  it("matches names without regard to case, and takes every other character literally", () => {
    const c = scope({ tool_allow: { "*": { deny: ["Delete_*", "notion-*.v2", "a.b"] } } });
    expect(toolAllowed(c, "default", "DELETE_issue")).toBe(false);
    expect(toolAllowed(c, "default", "notion-create-pages.v2")).toBe(false);
    expect(toolAllowed(c, "default", "aXb")).toBe(true);
    expect(toolAllowed(c, "default", "a.b")).toBe(false);
  });

  it("handles stars anywhere, several of them, and alone", () => {
    const c = (pattern: string) => scope({ tool_allow: { "*": { allow: [pattern] } } });
    expect(toolAllowed(c("*"), "default", "anything")).toBe(true);
    expect(toolAllowed(c("*issue*"), "default", "list_issues_by_team")).toBe(true);
    expect(toolAllowed(c("a*b*b"), "default", "abb")).toBe(true);
    expect(toolAllowed(c("a*ab"), "default", "aab")).toBe(true);
    expect(toolAllowed(c("a*ab"), "default", "ab")).toBe(false);
    expect(toolAllowed(c("get**issue"), "default", "get_issue")).toBe(true);
    expect(toolAllowed(c("x*y*z"), "default", "xzy")).toBe(false);
  });

  it("answers at once for patterns that would make a backtracking matcher explode", () => {
    const c = scope({ tool_allow: { "*": { allow: ["a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b"] } } });
    expect(toolAllowed(c, "default", "a".repeat(128))).toBe(false);
    expect(toolAllowed(c, "default", `${"a".repeat(127)}b`)).toBe(true);
  });
});
