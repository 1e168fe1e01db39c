import { expect, it } from "vitest";
import { AppError } from "./app-error";
import { surfaceOf } from "./error-codes";

it("maps AWF families to exit codes 1–4 and request codes to HTTP statuses", () => {
  expect(surfaceOf("USER.MCP_PROXY.UNKNOWN_KEY").exit).toBe(1);
  expect(surfaceOf("WORKFLOW.VALIDATION_FAILED").exit).toBe(2);
  expect(surfaceOf("EXECUTION.COMMAND_FAILED").exit).toBe(3);
  expect(surfaceOf("SYSTEM.QUEUE_UNAVAILABLE").exit).toBe(4);
  expect(surfaceOf("NOT_FOUND")).toEqual({ http: 404, trpc: "NOT_FOUND", exit: 1 });
  expect(surfaceOf("FORBIDDEN").http).toBe(403);
  expect(surfaceOf("something-unknown").http).toBe(500);
});

it("keeps the code, the user message and the location, and serialises without a stack", () => {
  const e = new AppError("USER.INPUT_VALIDATION_FAILED", "internal detail", {
    userMessage: "bad input",
    location: { file: "w.yaml", line: 3, column: 5, path: "states.a" },
  });
  expect(e.exitCode).toBe(1);
  expect(JSON.parse(JSON.stringify(e))).toEqual({
    code: "USER.INPUT_VALIDATION_FAILED",
    message: "bad input",
    location: { file: "w.yaml", line: 3, column: 5, path: "states.a" },
  });
});
