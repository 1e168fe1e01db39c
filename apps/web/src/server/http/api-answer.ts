/**
 * The one shape of an API answer: JSON, never cached, and for a failure the project's error
 * body `{ error: { code, message, location?, details? } }` with the HTTP status of its code
 * (packages/core/src/errors/error-codes.ts; a retryable 503 says when to retry). Anything
 * that is not an AppError is logged here and answered as a bare 500, never shown.
 */
import { AppError, RETRY_AFTER_SECONDS, surfaceOfError } from "@switchyard/core/errors";

export const jsonAnswer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store", ...headers },
  });

/** `error` as an answer; `what` names the surface in the log line of an unexpected one. */
export const errorAnswer = (error: unknown, what: string, headers: Record<string, string> = {}) => {
  if (error instanceof AppError) {
    const status = surfaceOfError(error).http;
    return jsonAnswer(
      status,
      {
        error: {
          code: error.code,
          message: error.userMessage,
          location: error.location,
          details: error.details,
        },
      },
      { ...(status === 503 ? { "retry-after": String(RETRY_AFTER_SECONDS) } : {}), ...headers },
    );
  }
  console.error(`switchyard-web: ${what} failed`, error);
  return jsonAnswer(500, { error: { code: "INTERNAL", message: "something went wrong" } }, headers);
};
