/**
 * How every agent provider reports the end of a step on its result: success, failure or
 * cancelled; on failure the error as `CODE: message` (scrubbed), its code, whether trying
 * again may help, and the exit code its family stands for (none when cancelled).
 */
import type { AppError } from "../errors/app-error";
import { surfaceOf, type ErrorCode } from "../errors/error-codes";

export type AgentStepStatus = "success" | "failure" | "cancelled";

export type AgentOutcomeFields = {
  exitCode?: number;
  error?: string;
  errorCode?: ErrorCode;
  retryable?: boolean;
};

export const outcomeFields = (
  status: AgentStepStatus,
  error: AppError | undefined,
  scrub: (text: string) => string,
): AgentOutcomeFields =>
  error
    ? {
        error: `${error.code}: ${scrub(error.message)}`,
        errorCode: error.code,
        retryable: error.retryable,
        ...(status === "cancelled" ? {} : { exitCode: surfaceOf(error.code).exit }),
      }
    : { exitCode: 0 };
