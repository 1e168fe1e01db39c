import { describe, expect, it } from "vitest";
import { approvalRuleFor, approvalRuleSchema, ruleOnBuiltins, ruleProblem } from "./approval-rules";
import { globMatches } from "./glob";
import { argumentsHash } from "./arguments-hash";
import { waitAnswerSchema } from "./waits";

describe("approval rules", () => {
  it("match tool names by pattern, the whole name only", () => {
    expect(globMatches("github_merge_*", "github_merge_pull_request")).toBe(true);
    expect(globMatches("*_delete_*", "drive_delete_file")).toBe(true);
    expect(globMatches("*_delete_*", "delete_file")).toBe(false);
    expect(globMatches("Bash", "Bash")).toBe(true);
    expect(globMatches("Bash", "BashX")).toBe(false);
    // Regular-expression characters in a name are literal.
    expect(globMatches("a-b", "a-b")).toBe(true);
  });

  it("narrow Bash by its command and Write by a path prefix", () => {
    const rules = [
      { tool: "Bash", command: "^git push" },
      { tool: "Write", outside: "src/" },
    ];
    expect(
      approvalRuleFor(rules, { tool: "Bash", arguments: { command: "git push origin" } }),
    ).toBe(rules[0]);
    expect(approvalRuleFor(rules, { tool: "Bash", arguments: { command: "ls" } })).toBeUndefined();
    expect(
      approvalRuleFor(rules, { tool: "Write", arguments: { path: "src/a.ts" } }),
    ).toBeUndefined();
    // `..` does not get a write out of the prefix unseen.
    expect(approvalRuleFor(rules, { tool: "Write", arguments: { path: "src/../etc/x" } })).toBe(
      rules[1],
    );
    expect(approvalRuleFor(rules, { tool: "Write", arguments: { path: "notes.txt" } })).toBe(
      rules[1],
    );
    // A second path key does not hide the one the tool reads: every path must be inside.
    expect(
      approvalRuleFor(rules, {
        tool: "Write",
        arguments: { file_path: "src/x.ts", path: "deploy/prod.yaml" },
      }),
    ).toBe(rules[1]);
    expect(approvalRuleFor(rules, { tool: "Write", arguments: { content: "x" } })).toBe(rules[1]);
  });

  it("say what is wrong with a rule, and whether it can hold a built-in", () => {
    expect(ruleProblem({ tool: "Write", command: "x" })).toMatch(/only the Bash rule/);
    expect(ruleProblem({ tool: "Bash", command: "(" })).toMatch(/not a regular expression/);
    expect(ruleProblem({ tool: "github_*", outside: "src" })).toMatch(/only Write and Edit/);
    expect(ruleProblem({ tool: "Bash", command: "^rm " })).toBeNull();
    expect(ruleOnBuiltins({ tool: "*" })).toBe(true);
    expect(ruleOnBuiltins({ tool: "github_*" })).toBe(false);
    expect(approvalRuleSchema.safeParse({ tool: "a b" }).success).toBe(false);
    expect(approvalRuleSchema.safeParse({ tool: "x", extra: 1 }).success).toBe(false);
    expect(
      approvalRuleSchema.safeParse({ tool: "x", min_role: "admin", not_starter: true }).success,
    ).toBe(true);
    expect(approvalRuleSchema.safeParse({ tool: "x", min_role: "viewer" }).success).toBe(false);
  });

  it("bind an approval to the arguments' canonical form", () => {
    expect(argumentsHash({ b: 1, a: "x" })).toBe(argumentsHash({ a: "x", b: 1 }));
    expect(argumentsHash({ a: 1 })).not.toBe(argumentsHash({ a: 2 }));
    expect(argumentsHash({ a: 1.0 })).toBe(argumentsHash({ a: 1 }));
    expect(waitAnswerSchema.safeParse({ decision: "maybe" }).success).toBe(false);
  });
});
