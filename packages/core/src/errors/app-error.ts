/**
 * The one error class of the product. `code` decides how every surface reports it (see
 * error-codes.ts); `userMessage` is what a client may see; `retryable` tells the worker
 * whether BullMQ may try again.
 */
import { surfaceOfError, type ErrorCode } from "./error-codes";

type AppErrorOptions = {
  userMessage?: string;
  /**
   * Whether the worker may let BullMQ try the job again.
   * @default false
   */
  retryable?: boolean;
  cause?: unknown;
  /** Where it happened: file, line, column, field path. */
  location?: ErrorLocation;
  /** Structured, client-safe detail (e.g. every validation problem), shown with the code. */
  details?: unknown;
};

export type ErrorLocation = { file?: string; line?: number; column?: number; path?: string };

/** An error with a taxonomy code, a message a client may see and whether it may be retried. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly userMessage: string;
  readonly retryable: boolean;
  readonly location: ErrorLocation | undefined;
  readonly details: unknown;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.userMessage = options.userMessage ?? message;
    this.retryable = options.retryable ?? false;
    this.location = options.location;
    this.details = options.details;
  }

  get httpStatus(): number {
    return surfaceOfError(this).http;
  }

  get exitCode(): number {
    return surfaceOfError(this).exit;
  }

  toJSON() {
    return {
      code: this.code,
      message: this.userMessage,
      location: this.location,
      details: this.details,
    };
  }
}

/** Whether `value` is an AppError. */
export const isAppError = (value: unknown): value is AppError => value instanceof AppError;
