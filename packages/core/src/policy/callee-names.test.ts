import { expect, test } from "vitest";
import { calleeNames, resolveCalleeName } from "./callee-names";

test("a pack workflow's short call_workflow name is its pack's first, then the team's", async () => {
  expect(calleeNames("speckit", "helper")).toEqual(["speckit/helper", "helper"]);
  expect(calleeNames("speckit", "linter/check")).toEqual(["linter/check"]);
  expect(calleeNames(null, "helper")).toEqual(["helper"]);
  const team = new Set(["helper", "speckit/helper", "shared"]);
  const has = (n: string) => team.has(n);
  expect(await resolveCalleeName("speckit", "helper", has)).toBe("speckit/helper");
  expect(await resolveCalleeName("speckit", "shared", has)).toBe("shared");
  expect(await resolveCalleeName(undefined, "helper", has)).toBe("helper");
  expect(await resolveCalleeName("speckit", "missing", has)).toBeUndefined();
});
