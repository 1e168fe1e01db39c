export { AppError, isAppError } from "./app-error";
export type { ErrorLocation } from "./app-error";
export { CODES, isErrorCode, RETRY_AFTER_SECONDS, surfaceOf, surfaceOfError } from "./error-codes";
export type { ErrorCode } from "./error-codes";
