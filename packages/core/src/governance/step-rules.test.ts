import { describe, expect, it } from "vitest";
import { checkApprovalRule } from "./check-rule";
import { stepApprovalRules } from "./step-rules";

const proxy = (interceptBuiltins: boolean, approve?: { tool: string; command?: string }[]) => ({
  interceptBuiltins,
  ...(approve ? { approve } : {}),
});

describe("stepApprovalRules", () => {
  it("puts the lane's rules first and the step's after, each with its origin", () => {
    const result = stepApprovalRules([{ tool: "github_merge_*" }], {
      name: "fix",
      mcpProxy: proxy(true, [{ tool: "Bash", command: "^git push" }]),
    });
    expect(result).toEqual({
      rules: [
        { tool: "github_merge_*", origin: "lane" },
        { tool: "Bash", command: "^git push", origin: "workflow" },
      ],
    });
  });

  it("keeps the lane's rules when the step lists none, or an empty list: a workflow never removes them", () => {
    const lane = [{ tool: "*_delete_*" }, { tool: "Write", outside: "src" }];
    const expected = {
      rules: [
        { tool: "*_delete_*", origin: "lane" },
        { tool: "Write", outside: "src", origin: "lane" },
      ],
    };
    expect(stepApprovalRules(lane, {})).toEqual(expected);
    expect(stepApprovalRules(lane, { mcpProxy: proxy(true, []) })).toEqual(expected);
  });

  it("takes built-ins as intercepted without an mcp_proxy block, as every provider serves them through the proxy", () => {
    const result = stepApprovalRules([{ tool: "Bash" }], { name: "a" });
    expect("rules" in result && result.rules).toEqual([{ tool: "Bash", origin: "lane" }]);
  });

  it("refuses a lane rule on built-ins in a step with intercept_builtins: false, naming the step, the rule and the field", () => {
    const result = stepApprovalRules(
      [{ tool: "github_merge_*" }, { tool: "Bash", command: "rm" }],
      {
        name: "fix",
        mcpProxy: proxy(false),
      },
    );
    if (!("error" in result)) throw new Error("expected a refusal");
    expect(result.error.code).toBe("USER.APPROVAL.BUILTINS_NOT_INTERCEPTED");
    expect(result.error.message).toContain('step "fix"');
    expect(result.error.message).toContain("lane's approval rule 2");
    expect(result.error.message).toContain("Bash whose command matches /rm/");
    expect(result.error.location).toEqual({ path: "states.fix.mcp_proxy.intercept_builtins" });
  });

  it("refuses the step's own rule on built-ins with intercept_builtins: false at that rule", () => {
    const result = stepApprovalRules([{ tool: "github_merge_*" }], {
      name: "fix",
      mcpProxy: proxy(false, [{ tool: "jira_*" }, { tool: "*" }]),
    });
    if (!("error" in result)) throw new Error("expected a refusal");
    expect(result.error.code).toBe("USER.APPROVAL.BUILTINS_NOT_INTERCEPTED");
    expect(result.error.location).toEqual({ path: "states.fix.mcp_proxy.approve[1].tool" });
    expect(result.error.details).toMatchObject({ origin: "workflow", rule: { tool: "*" } });
  });

  it("lets connector rules through where the built-ins are the CLI's", () => {
    const result = stepApprovalRules([{ tool: "github_merge_*" }], {
      mcpProxy: proxy(false, [{ tool: "jira_delete_*" }]),
    });
    expect("rules" in result && result.rules.map((r) => r.tool)).toEqual([
      "github_merge_*",
      "jira_delete_*",
    ]);
  });

  it("refuses a lane rule stored broken instead of dropping it", () => {
    const result = stepApprovalRules([{ tool: "Bash" }, { tool: "Read", command: "(" }], {});
    if (!("error" in result)) throw new Error("expected a refusal");
    expect(result.error.code).toBe("USER.APPROVAL.RULE_INVALID");
    expect(result.error.location).toEqual({ path: "approvalRules[1].command" });
  });
});

describe("checkApprovalRule", () => {
  it.each([
    [{ tool: "github_merge_*" }, null],
    [{ tool: "Bash", command: "^rm -rf" }, null],
    [{ tool: "Edit", outside: "src/" }, null],
    [{}, "tool"],
    [{ tool: "" }, "tool"],
    [{ tool: "git hub" }, "tool"],
    [{ tool: 3 }, "tool"],
    [{ tool: "Bash", command: "([" }, "command"],
    [{ tool: "Read", command: "x" }, "command"],
    [{ tool: "Bash", outside: "src" }, "outside"],
    [{ tool: "Write", path: "src" }, "path"],
  ])("%j: fault at %s", (value, field) => {
    const checked = checkApprovalRule(value);
    if (field === null) expect(checked).toEqual({ ok: true, rule: value });
    else expect(checked).toMatchObject({ ok: false, field });
  });

  it("says a missing tool is required and a rule must be a mapping", () => {
    expect(checkApprovalRule({})).toMatchObject({ message: '"tool": is required' });
    expect(checkApprovalRule("Bash")).toMatchObject({ ok: false, field: undefined });
  });
});
