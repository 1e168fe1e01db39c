import { expect, test } from "vitest";
import { AppError } from "./app-error";
import { CODES, ERROR_CODES, isErrorCode, surfaceOf } from "./error-codes";

test("no two codes in the table differ only by dots or underscores", () => {
  const byShape = new Map<string, string[]>();
  for (const code of Object.keys(ERROR_CODES)) {
    const shape = code.replace(/[._]/g, "");
    byShape.set(shape, [...(byShape.get(shape) ?? []), code]);
  }
  expect([...byShape.values()].filter((codes) => codes.length > 1)).toEqual([]);
});

test("every named code is in the table", () => {
  for (const code of Object.values(CODES)) expect(isErrorCode(code)).toBe(true);
});

test("a misspelt code does not compile and is not a known code", () => {
  // @ts-expect-error the taxonomy spells it USER.INPUT.VALIDATION_FAILED
  const misspelt = new AppError("USER.INPUT_VALIDATION_FAILED", "x");
  expect(isErrorCode(misspelt.code)).toBe(false);
  expect(isErrorCode("USER.INPUT.VALIDATION_FAILED")).toBe(true);
});

test("codes keep their family's surface unless the table says otherwise", () => {
  expect(surfaceOf("WORKFLOW.PARSE.YAML_SYNTAX")).toEqual({
    http: 422,
    trpc: "BAD_REQUEST",
    exit: 2,
  });
  expect(surfaceOf("USER.LANE.CALL_DENIED")).toEqual({ http: 403, trpc: "FORBIDDEN", exit: 1 });
  expect(surfaceOf("NOT_FOUND").http).toBe(404);
  // A code stored by an older version still reports by its family.
  expect(surfaceOf("EXECUTION.SOMETHING_OLD").exit).toBe(3);
  expect(surfaceOf("nonsense").http).toBe(500);
});
