/**
 * `mcp_proxy.approve` (a Switchyard extension): an agent step's own approval rules, each
 * checked as the lanes API checks them, every problem at its line and field.
 */
import { describe, expect, it } from "vitest";
import { parseWorkflow } from "./parse-workflow";

const agent = (proxy: string) => `name: guarded
states:
  initial: fix
  fix:
    type: agent
    provider: claude
    prompt: fix it
    mcp_proxy:
${proxy}
    on_success: done
  done:
    type: terminal
`;

const problems = (source: string) =>
  parseWorkflow(source, "w.yaml").errors.map((e) => ({
    code: e.code,
    line: e.location?.line,
    path: e.location?.path,
  }));

describe("mcp_proxy.approve", () => {
  it("reads the step's rules into its proxy config", () => {
    const { workflow, errors } = parseWorkflow(
      agent(`      approve:
        - tool: github_merge_*
        - { tool: Bash, command: "^git push" }
        - tool: Write
          outside: src/`),
      "w.yaml",
    );
    expect(errors).toEqual([]);
    const fix = workflow!.states.get("fix");
    expect(fix?.kind === "agent" && fix.mcpProxy?.approve).toEqual([
      { tool: "github_merge_*" },
      { tool: "Bash", command: "^git push" },
      { tool: "Write", outside: "src/" },
    ]);
  });

  it("leaves approve unset when the block has none", () => {
    const fix = parseWorkflow(agent("      enable: true"), "w.yaml").workflow!.states.get("fix");
    expect(fix?.kind === "agent" && fix.mcpProxy && "approve" in fix.mcpProxy).toBe(false);
  });

  it("reports each broken rule at its line and field", () => {
    const source = agent(`      approve:
        - tool: github_merge_*
        - tool: Read
          command: rm
        - tool: Bash
          command: "(["
        - { tool: "git hub" }
        - tool: Edit
          path: src
        - outside: src
        - just_a_name
        - tool: Bash
          outside: src`);
    expect(problems(source)).toEqual([
      {
        code: "USER.APPROVAL.RULE_INVALID",
        line: 12,
        path: "states.fix.mcp_proxy.approve[1].command",
      },
      {
        code: "USER.APPROVAL.RULE_INVALID",
        line: 14,
        path: "states.fix.mcp_proxy.approve[2].command",
      },
      {
        code: "USER.APPROVAL.RULE_INVALID",
        line: 15,
        path: "states.fix.mcp_proxy.approve[3].tool",
      },
      {
        code: "USER.APPROVAL.RULE_INVALID",
        line: 17,
        path: "states.fix.mcp_proxy.approve[4].path",
      },
      {
        code: "USER.APPROVAL.RULE_INVALID",
        line: 18,
        path: "states.fix.mcp_proxy.approve[5].tool",
      },
      { code: "USER.APPROVAL.RULE_INVALID", line: 19, path: "states.fix.mcp_proxy.approve[6]" },
      {
        code: "USER.APPROVAL.RULE_INVALID",
        line: 21,
        path: "states.fix.mcp_proxy.approve[7].outside",
      },
    ]);
    const [first] = parseWorkflow(source, "w.yaml").errors;
    expect(first?.message).toContain('"command" narrows only the Bash rule');
    expect(first?.location).toMatchObject({ file: "w.yaml", column: 20 });
  });

  it("refuses approve that is not a list", () => {
    expect(problems(agent("      approve: Bash"))).toEqual([
      { code: "USER.APPROVAL.RULE_INVALID", line: 9, path: "states.fix.mcp_proxy.approve" },
    ]);
  });

  it("refuses a rule on built-ins where intercept_builtins: false leaves them to the CLI, at that rule", () => {
    const source = agent(`      intercept_builtins: false
      connectors: [github]
      approve:
        - tool: github_merge_*
        - tool: Bash
          command: "^rm"`);
    const errors = parseWorkflow(source, "w.yaml").errors;
    expect(errors.map((e) => [e.code, e.location?.line, e.location?.path])).toEqual([
      ["USER.APPROVAL.BUILTINS_NOT_INTERCEPTED", 13, "states.fix.mcp_proxy.approve[1].tool"],
    ]);
    expect(errors[0]?.message).toContain('step "fix"');
    expect(errors[0]?.message).toContain("Bash whose command matches /^rm/");
  });

  it("lets connector rules through with intercept_builtins: false", () => {
    const source = agent(`      intercept_builtins: false
      connectors: [github]
      approve: [{ tool: github_merge_* }]`);
    expect(problems(source)).toEqual([]);
  });
});
