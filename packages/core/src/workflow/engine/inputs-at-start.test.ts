import { describe, expect, it } from "vitest";
import { parseOk } from "@switchyard/testing/workflow";
import { checkStartInputs, missingRequiredInputs } from "./inputs-at-start";

const wf = parseOk(`
name: typed
inputs:
  - { name: env, type: string, required: true, validation: { enum: [staging, production] } }
  - { name: count, type: integer, default: 1, validation: { min: 1, max: 5 } }
  - { name: tag, type: string, validation: { pattern: "^v[0-9]+$" } }
states:
  initial: done
  done: { type: terminal }
`);

describe("checkStartInputs", () => {
  it("passes inputs that match the declaration", async () => {
    expect(
      await checkStartInputs(wf.inputs, { env: "staging", count: 3, tag: "v2" }),
    ).toBeUndefined();
  });

  it("names the input that is wrong, with a USER code", async () => {
    const e = await checkStartInputs(wf.inputs, { env: "qa" });
    expect(e?.code).toBe("USER.INPUT.VALIDATION_FAILED");
    expect(e?.message).toContain("inputs.env");
    expect(e?.message).toContain("staging, production");
    expect(e?.location?.path).toBe("inputs.env");
  });

  it("reports every problem at once: missing required, out of range, pattern", async () => {
    const e = await checkStartInputs(wf.inputs, { count: 9, tag: "x" });
    expect(e?.message).toMatch(/3 inputs are invalid/);
    const problems = (e?.details as { problems: { path: string }[] }).problems
      .map((p) => p.path)
      .sort();
    expect(problems).toEqual(["inputs.count", "inputs.env", "inputs.tag"]);
  });
});

describe("missingRequiredInputs", () => {
  it("names the required inputs neither given nor defaulted", () => {
    const defs = parseOk(`
name: asks
inputs:
  - { name: env, required: true }
  - { name: count, type: integer, required: true, default: 2 }
  - { name: tag }
  - { name: version, required: true }
states:
  initial: done
  done: { type: terminal }
`).inputs;
    expect(missingRequiredInputs(defs, {}).map((d) => d.name)).toEqual(["env", "version"]);
    expect(missingRequiredInputs(defs, { env: "prod" }).map((d) => d.name)).toEqual(["version"]);
    expect(missingRequiredInputs(defs, { env: "prod", version: "v1" })).toEqual([]);
  });
});
