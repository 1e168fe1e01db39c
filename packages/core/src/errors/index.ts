export { AppError, isAppError } from "./app-error";
export type { AppErrorOptions, ErrorLocation } from "./app-error";
export { CODES, ERROR_CODES, isErrorCode, RETRY_AFTER_SECONDS, surfaceOf, surfaceOfError } from "./error-codes";
export type { Code, ErrorCode, ErrorSurface, TrpcCode } from "./error-codes";
