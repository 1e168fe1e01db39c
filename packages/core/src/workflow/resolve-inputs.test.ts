/**
 * Run inputs: defaults, type coercion and every validation rule reported at once.
 */
import { describe, expect, it } from "vitest";
import { resolveInputs } from "./resolve-inputs";
import { parseOk } from "./test-support/run-yaml";

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
  it("applies defaults and coerces strings to each declared type", () => {
    const r = resolveInputs(wf.inputs, {
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

  it("reports every problem at once", () => {
    const r = resolveInputs(
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
