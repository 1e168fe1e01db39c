/**
 * The condition language: every operator, missing values that never throw, and
 * positioned errors for malformed expressions.
 */
import { describe, expect, it } from "vitest";
import { evaluate } from "./evaluate-expression";
import { parseExpression } from "./expression";

const values: Record<string, unknown> = {
  "inputs.mode": "full",
  "inputs.count": 5,
  "inputs.flag": true,
  "states.build.ExitCode": 0,
  "states.build.Output": "ready: all good",
  "inputs.list": ["a", "b"],
};
const env = { resolve: (parts: string[]) => values[parts.join(".")], readFile: () => undefined };
const run = (src: string) => evaluate(parseExpression(src), env);

describe("conditions", () => {
  it.each([
    ["inputs.mode == 'full'", true],
    ['.inputs.mode != "full"', false],
    ["inputs.count > 3 and inputs.count <= 5", true],
    ["inputs.count < 5 or inputs.count >= 6", false],
    ["not (inputs.count == 5)", false],
    ["!inputs.flag || inputs.flag == true", true],
    ["states.build.ExitCode == 0 and inputs.mode == 'full'", true],
    ["states.build.Output contains 'all'", true],
    ["states.build.Output startsWith 'ready'", true],
    ["states.build.Output endsWith 'bad'", false],
    ["inputs.list contains 'b'", true],
    ["'10' > 9", true],
    ["inputs.count * 2 + 1 == 11", true],
    ["inputs.count % 2 == 1", true],
    ["{{.inputs.mode}} == 'full'", true],
  ])("%s is %s", (src, expected) => expect(run(src)).toBe(expected));

  it("never throws on a missing value: comparisons with it are false, != is true", () => {
    expect(run("states.nope.ExitCode == 0")).toBe(false);
    expect(run("states.nope.ExitCode > 0")).toBe(false);
    expect(run("states.nope.ExitCode < 0")).toBe(false);
    expect(run("states.nope.ExitCode != 0")).toBe(true);
    expect(run("states.nope.Output contains 'x'")).toBe(false);
    expect(run("not states.nope.Output")).toBe(true);
  });

  it("rejects malformed expressions with a position", () => {
    expect(() => parseExpression("inputs.mode == ")).toThrow(/end of expression/);
    expect(() => parseExpression("(inputs.mode == 'a'")).toThrow(/missing \)/);
    expect(() => parseExpression("inputs.mode == 'a")).toThrow(/unclosed string/);
    expect(() => parseExpression("inputs.mode @ 1")).toThrow(/unexpected "@" at character 13/);
  });
});
