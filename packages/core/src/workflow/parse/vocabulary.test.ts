import { describe, expect, it } from "vitest";
import { parseWorkflow } from "./parse-workflow";
import {
  APPROVE_RULE_KEYS,
  completionKeys,
  KEY_VALUES,
  STATE_KEYS,
  STATE_REFERENCE_KEYS,
  STATE_TYPES,
} from "./vocabulary";

describe("completionKeys", () => {
  it("offers the keys of each place in a document", () => {
    expect(completionKeys([])).toContain("states");
    expect(completionKeys(["states"])).toEqual(["initial"]);
    expect(completionKeys(["states", "a"], "step")).toContain("command");
    expect(completionKeys(["states", "a"], "step")).not.toContain("prompt");
    expect(completionKeys(["states", "a"], "agent")).toContain("prompt");
    expect(completionKeys(["states", "a"])).toEqual(
      expect.arrayContaining(["command", "prompt", "parallel", "status"]),
    );
    expect(completionKeys(["states", "a", "retry"])).toContain("max_attempts");
    expect(completionKeys(["states", "a", "transitions", "#"])).toEqual(["when", "goto"]);
    expect(completionKeys(["states", "a", "hooks"])).toEqual(["pre", "post"]);
    expect(completionKeys(["states", "a", "hooks", "pre", "#"])).toContain("command");
    expect(completionKeys(["inputs", "#"])).toContain("validation");
    expect(completionKeys(["inputs", "#", "validation"])).toContain("enum");
    expect(completionKeys(["hooks"])).toContain("workflow_start");
    expect(completionKeys(["states", "a", "command"])).toEqual([]);
    expect(completionKeys(["states", "a", "mcp_proxy"])).toContain("approve");
    expect(completionKeys(["states", "a", "mcp_proxy", "approve", "#"])).toEqual([
      "tool",
      "command",
      "outside",
      "min_role",
      "not_starter",
    ]);
  });

  it("offers only keys the reader accepts: every state key of every type parses without an unknown-key error", () => {
    for (const type of STATE_TYPES) {
      for (const key of STATE_KEYS[type]) {
        const source = `name: w\nstates:\n  initial: a\n  a:\n    type: ${type}\n    ${key}: x\n`;
        const unknown = parseWorkflow(source).errors.filter(
          (e) => e.code === "WORKFLOW.PARSE.UNKNOWN_FIELD",
        );
        expect(unknown.map((e) => `${type}.${key}: ${e.message}`)).toEqual([]);
      }
    }
  });

  it("offers only the rule keys the approve reader accepts", () => {
    const rule = `{ ${APPROVE_RULE_KEYS.map((k) => `${k}: ${k === "tool" ? "Bash" : "x"}`).join(", ")} }`;
    const source = `name: w\nstates:\n  initial: a\n  a:\n    type: agent\n    provider: claude\n    prompt: hi\n    mcp_proxy: { approve: [${rule}] }\n`;
    const unknown = parseWorkflow(source).errors.filter((e) => e.message.includes("unknown field"));
    expect(unknown).toEqual([]);
  });

  it("names state references and fixed values only where the language has them", () => {
    const everyKey = new Set([...STATE_TYPES.flatMap((t) => STATE_KEYS[t]), "initial", "goto"]);
    for (const key of STATE_REFERENCE_KEYS) expect(everyKey.has(key)).toBe(true);
    expect(KEY_VALUES.type).toEqual(STATE_TYPES);
    const agent = (provider: string) =>
      parseWorkflow(
        `name: w\nstates:\n  initial: a\n  a: { type: agent, provider: ${provider}, prompt: hi, on_success: d }\n  d: { type: terminal }\n`,
      ).errors;
    for (const p of KEY_VALUES.provider ?? []) expect(agent(p)).toEqual([]);
  });
});
