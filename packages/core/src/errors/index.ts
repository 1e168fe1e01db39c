export { AppError, isAppError } from "./app-error";
export type { AppErrorOptions, ErrorLocation } from "./app-error";
export { CODES, RETRY_AFTER_SECONDS, surfaceOf, surfaceOfError } from "./error-codes";
export type { Code, ErrorSurface, TrpcCode } from "./error-codes";
