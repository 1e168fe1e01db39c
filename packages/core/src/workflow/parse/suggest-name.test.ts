/**
 * "Did you mean" suggestions stay useful and never far-fetched.
 */
import { expect, it } from "vitest";
import { suggestName } from "./suggest-name";

it("suggests the closest candidate only when it is a plausible typo", () => {
  expect(suggestName("on_sucess", ["on_success", "on_failure"])).toBe("on_success");
  expect(suggestName("Outptu", ["Output", "Stdout"])).toBe("Output");
  expect(suggestName("zz", ["a", "done"])).toBeUndefined();
  expect(suggestName("completely_different", ["command"])).toBeUndefined();
});

it("suggests the closest state type for a misspelt one", async () => {
  const { parseWorkflow } = await import("./parse-workflow");
  const result = parseWorkflow("name: t\nstates:\n  initial: a\n  a:\n    type: stepp\n", "t.yaml");
  expect(result.errors.map((e) => [e.location?.line, e.message])).toContainEqual([
    5,
    expect.stringContaining('did you mean "step"?'),
  ]);
});
