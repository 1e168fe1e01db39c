export { AppError, isAppError } from "./app-error";
export type { AppErrorOptions, ErrorLocation } from "./app-error";
export { surfaceOf } from "./error-codes";
export type { ErrorSurface, TrpcCode } from "./error-codes";
