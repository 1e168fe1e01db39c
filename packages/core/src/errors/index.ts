export { AppError, isAppError } from "./app-error";
export type { AppErrorOptions, ErrorLocation } from "./app-error";
export { CODES, surfaceOf } from "./error-codes";
export type { Code, ErrorSurface, TrpcCode } from "./error-codes";
