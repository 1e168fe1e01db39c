import { expect, it } from "vitest";
import { AppError } from "./app-error";
import { surfaceOf, surfaceOfError } from "./error-codes";

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
  const e = new AppError("USER.INPUT.VALIDATION_FAILED", "internal detail", {
    userMessage: "bad input",
    location: { file: "w.yaml", line: 3, column: 5, path: "states.a" },
  });
  expect(e.exitCode).toBe(1);
  expect(JSON.parse(JSON.stringify(e))).toEqual({
    code: "USER.INPUT.VALIDATION_FAILED",
    message: "bad input",
    location: { file: "w.yaml", line: 3, column: 5, path: "states.a" },
  });
});

it("reports a retryable server-side failure as 503 / SERVICE_UNAVAILABLE, keeping the family's exit code", () => {
  const down = new AppError("SYSTEM.QUEUE_UNAVAILABLE", "queue down", { retryable: true });
  expect(down.httpStatus).toBe(503);
  expect(surfaceOfError(down)).toEqual({ http: 503, trpc: "SERVICE_UNAVAILABLE", exit: 4 });
  expect(new AppError("SYSTEM.QUEUE_UNAVAILABLE", "queue down").httpStatus).toBe(500);
  // a retryable request error keeps its own status
  expect(new AppError("RATE_LIMITED", "slow down", { retryable: true }).httpStatus).toBe(429);
});
