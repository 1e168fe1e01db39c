/**
 * An agent step's `tool_timeout`: read as a duration of at least a second, reported at its
 * line and field otherwise.
 */
import { describe, expect, it } from "vitest";
import { parseWorkflow } from "./parse-workflow";

const agentWith = (line: string) =>
  parseWorkflow(
    `name: t
states:
  initial: a
  a:
    type: agent
    provider: claude
    prompt: hi
${line}
    on_success: d
  d:
    type: terminal
`,
    "w.yaml",
  );

const toolTimeoutOf = (line: string) => {
  const state = agentWith(line).workflow?.states.get("a");
  return state?.kind === "agent" ? state.toolTimeoutMs : "not an agent";
};

describe("tool_timeout", () => {
  it("reads seconds or a duration", () => {
    expect(toolTimeoutOf("    tool_timeout: 45m")).toBe(2_700_000);
    expect(toolTimeoutOf("    tool_timeout: 90")).toBe(90_000);
    expect(toolTimeoutOf("    tool_timeout: 1m30s")).toBe(90_000);
    expect(toolTimeoutOf("")).toBeUndefined();
  });

  it.each([
    ["500ms", "must be at least 1s"],
    ["0", "must be at least 1s"],
    ["soon", "must be a duration"],
    ["1000h", "must be at most"],
  ])("refuses %s at its line and field", (value, words) => {
    const { errors } = agentWith(`    tool_timeout: ${value}`);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      code: "WORKFLOW.VALIDATION.INVALID_VALUE",
      location: { file: "w.yaml", path: "states.a.tool_timeout", line: 8 },
    });
    expect(errors[0]!.message).toContain(words);
  });

  it("is not a key of other states", () => {
    const { errors } = parseWorkflow(
      "name: t\nstates:\n  initial: s\n  s:\n    type: step\n    command: true\n    tool_timeout: 5m\n    on_success: d\n  d:\n    type: terminal\n",
    );
    expect(errors.map((e) => [e.code, e.location?.path])).toEqual([
      ["WORKFLOW.PARSE.UNKNOWN_FIELD", "states.s.tool_timeout"],
    ]);
  });
});
