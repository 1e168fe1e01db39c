/**
 * Run inputs: defaults, type coercion and every validation rule reported at once.
 */
import { describe, expect, it } from "vitest";
import { resolveInputs } from "./resolve-inputs";
import { parseOk, runYaml } from "@switchyard/testing/workflow";

const wf = parseOk(`
name: inputs
inputs:
  - { name: env, type: string, default: staging, validation: { enum: [dev, staging, prod] } }
  - { name: count, type: integer, validation: { min: 1, max: 100 } }
  - { name: ratio, type: number, default: 0.5 }
  - { name: debug, type: boolean, default: false }
  - { name: files, type: array, validation: { file_extension: [".go"] } }
  - { name: email, type: string, required: true, validation: { pattern: "^[^@]+@[^@]+$" } }
  - { name: path, type: string, validation: { file_exists: true } }
states:
  initial: done
  done: { type: terminal }
`);

describe("run inputs", () => {
  it("applies defaults and coerces strings to each declared type", async () => {
    const r = await resolveInputs(wf.inputs, {
      count: "5",
      debug: "true",
      files: "a.go, b.go",
      email: "a@b.c",
    });
    expect(r.errors).toEqual([]);
    expect(r.values).toEqual({
      env: "staging",
      count: 5,
      ratio: 0.5,
      debug: true,
      files: ["a.go", "b.go"],
      email: "a@b.c",
    });
  });

  it("reports every problem at once", async () => {
    const r = await resolveInputs(
      wf.inputs,
      { env: "qa", count: "150", debug: "yes", files: '["a.py"]', path: "/nope", extra: "1" },
      { fileExists: () => false },
    );
    expect(r.errors.map((e) => e.message).sort()).toEqual([
      "inputs.count: value 150 exceeds maximum 100",
      "inputs.debug: must be true or false",
      "inputs.email: is required (string)",
      "inputs.env: must be one of dev, staging, prod",
      "inputs.extra: is not an input of this workflow (inputs: env, count, ratio, debug, files, email, path)",
      "inputs.files: must end with one of .go",
      'inputs.path: file "/nope" does not exist',
    ]);
    expect(new Set(r.errors.map((e) => e.code))).toEqual(new Set(["USER.INPUT.VALIDATION_FAILED"]));
  });
});

describe("a validation pattern that backtracks exponentially", () => {
  const hostile = `name: hostile
inputs:
  - { name: code, type: string, validation: { pattern: "^(a+)+$" } }
  - { name: zip, type: string, validation: { pattern: "^[0-9]{5}$" } }
states:
  initial: done
  done: { type: terminal }
`;
  const evil = `${"a".repeat(40)}!`;

  it("fails at the input's field with USER.PATTERN.TIMEOUT naming the budget, and the other inputs are still checked", async () => {
    const r = await resolveInputs(parseOk(hostile).inputs, { code: evil, zip: "1234" });
    expect(r.errors.map((e) => [e.code, e.location?.path, e.message])).toEqual([
      [
        "USER.PATTERN.TIMEOUT",
        "inputs.code",
        expect.stringMatching(
          /^inputs\.code: pattern took longer than 1000 ms; the validation pattern \^\(a\+\)\+\$ is too slow/,
        ),
      ],
      [
        "USER.INPUT.VALIDATION_FAILED",
        "inputs.zip",
        "inputs.zip: does not match pattern ^[0-9]{5}$",
      ],
    ]);
    expect(r.values).toEqual({});
    const fine = await resolveInputs(parseOk(hostile).inputs, { code: "aaaa", zip: "12345" });
    expect(fine).toEqual({ values: { code: "aaaa", zip: "12345" }, errors: [] });
  });

  it("leaves the event loop free while it runs: a timer set after it started fires before it ends", async () => {
    const order: string[] = [];
    const validation = Promise.resolve()
      .then(() => resolveInputs(parseOk(hostile).inputs, { code: evil }))
      .then((r) => {
        order.push("validated");
        return r;
      });
    await new Promise((resolve) => setTimeout(resolve, 20));
    order.push("timer");
    const result = await validation;
    expect(order).toEqual(["timer", "validated"]);
    expect(result.errors[0]?.code).toBe("USER.PATTERN.TIMEOUT");
  });

  it("fails the run start with that error", async () => {
    const { outcome, processes } = await runYaml(
      hostile.replace(
        "initial: done",
        "initial: hello\n  hello: { type: step, command: echo hi, on_success: done }",
      ),
      { inputs: { code: evil } },
    );
    expect(outcome.status).toBe("failed");
    expect(outcome.errorCode).toBe("USER.PATTERN.TIMEOUT");
    expect(outcome.errorMessage).toMatch(/^inputs\.code: pattern took longer than 1000 ms/);
    expect(processes).toEqual([]);
  });
});
