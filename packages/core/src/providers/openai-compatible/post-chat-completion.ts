/**
 * One model turn over HTTP: POST `<base>/chat/completions`, retried with backoff on 429, 5xx
 * and unreachable endpoints (honouring what the server asks for, within bounds), each attempt
 * under a timeout, abandoned at once when the step's signal fires. Redirects are never
 * followed (the endpoint was checked against the team's list, its target was not). Every
 * message that could carry text from the server goes through `scrub`, so the key never
 * appears in an error.
 */
import { AppError, isAppError } from "../../errors/app-error";
import { CODES } from "../../errors/error-codes";
import { retryDelay } from "../../workflow/engine/retry-delay";
import type { FetchLike } from "../../egress/egress-fetch";
import type { RetryNotice } from "../agent-events";
import {
  errorMessageOf,
  readChatResponse,
  readErrorBody,
  type ChatTurn,
} from "./read-chat-response";
import { abortReason, retryAfterMs, sleep } from "./retry-after";

export type ChatLimits = {
  /** Attempts per turn, the first included. */
  maxAttempts: number;
  retryBaseDelayMs: number;
  retryMaxDelayMs: number;
  /** A server asking to wait longer than this fails the step at once rather than stall it. */
  maxRetryAfterMs: number;
  /** One attempt, from sending to the last byte of the answer. */
  requestTimeoutMs: number;
  maxResponseBytes: number;
};

export const DEFAULT_CHAT_LIMITS: ChatLimits = {
  maxAttempts: 5,
  retryBaseDelayMs: 1000,
  retryMaxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
  requestTimeoutMs: 300_000,
  maxResponseBytes: 8 * 1024 * 1024,
};

export type PostChatInput = {
  /** The normalised base URL (see checkBaseUrl); `/chat/completions` is appended. */
  baseUrl: string;
  apiKey?: string;
  body: Record<string, unknown>;
  /** Aborted with an AppError as its reason (cancelled, step timeout), which is thrown. */
  signal: AbortSignal;
  limits: ChatLimits;
  scrub: (text: string) => string;
  onText?: (text: string) => void;
  onRetry?: (notice: RetryNotice) => void;
  random?: () => number;
  /** The egress fetch the worker reaches model endpoints with; the global fetch where none is given (`switchyard run`). */
  fetch?: FetchLike;
};

const ERROR_BODY_BYTES = 64 * 1024;
const MESSAGE_CHARS = 500;

/** What an error response says, in one line, key scrubbed. */
const serverMessage = (text: string, scrub: (t: string) => string) => {
  let message: string | undefined;
  try {
    message = errorMessageOf(JSON.parse(text));
  } catch {
    // Not JSON: the text itself says it.
  }
  const line = (message ?? text).replace(/\s+/g, " ").trim() || "(empty body)";
  return scrub(line.length > MESSAGE_CHARS ? `${line.slice(0, MESSAGE_CHARS)}…` : line);
};

const networkMessage = (error: unknown) => {
  const e = error as { message?: string; cause?: { code?: string; message?: string } };
  const cause = e.cause?.code ?? e.cause?.message;
  return `${e.message ?? String(error)}${cause ? ` (${cause})` : ""}`;
};

type Attempt = { turn: ChatTurn } | { retry: { status?: number; message: string; after?: number } };

export const postChatCompletion = async (input: PostChatInput): Promise<ChatTurn> => {
  const { limits, scrub } = input;
  const url = `${input.baseUrl}/chat/completions`;
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "text/event-stream, application/json",
  };
  if (input.apiKey) headers.authorization = `Bearer ${input.apiKey}`;
  const payload = JSON.stringify(input.body);
  const policy = {
    maxAttempts: limits.maxAttempts,
    initialDelayMs: limits.retryBaseDelayMs,
    maxDelayMs: limits.retryMaxDelayMs,
    backoff: "exponential" as const,
    multiplier: 2,
    jitter: 0.25,
    retryableExitCodes: [],
  };

  const attempt = async (): Promise<Attempt> => {
    const controller = new AbortController();
    const forward = () => controller.abort(abortReason(input.signal));
    input.signal.addEventListener("abort", forward, { once: true });
    const timer = setTimeout(
      () =>
        controller.abort(
          new AppError(
            "EXECUTION.TIMEOUT",
            `the model endpoint did not answer within ${limits.requestTimeoutMs / 1000} s`,
          ),
        ),
      limits.requestTimeoutMs,
    );
    try {
      let response: Response;
      try {
        response = await (input.fetch ?? fetch)(url, {
          method: "POST",
          headers,
          body: payload,
          redirect: "manual",
          signal: controller.signal,
        });
      } catch (error) {
        if (controller.signal.aborted) throw abortReason(controller.signal);
        // The egress rule's refusal is final: trying again reaches the same address.
        if (error instanceof AppError && error.code === "USER.EGRESS.DENIED") throw error;
        return { retry: { message: `could not reach ${url}: ${scrub(networkMessage(error))}` } };
      }
      const status = response.status;
      if (status >= 200 && status < 300)
        return {
          turn: await readChatResponse(response, {
            maxBytes: limits.maxResponseBytes,
            scrub,
            ...(input.onText ? { onText: input.onText } : {}),
          }),
        };
      const message = serverMessage(await readErrorBody(response, ERROR_BODY_BYTES), scrub);
      if (status === 429 || status >= 500) {
        const after = retryAfterMs(response.headers, Date.now());
        return { retry: { status, message, ...(after === undefined ? {} : { after }) } };
      }
      if (status >= 300 && status < 400)
        throw new AppError(
          CODES.MODEL_REQUEST_REJECTED,
          `the model endpoint answered HTTP ${status}, a redirect to ${scrub(response.headers.get("location") ?? "(no location)")}, which is not followed; set options.base_url to the endpoint itself`,
        );
      throw new AppError(
        CODES.MODEL_REQUEST_REJECTED,
        `the model endpoint refused the request (HTTP ${status}): ${message}`,
        { details: { status } },
      );
    } catch (error) {
      if (controller.signal.aborted) throw abortReason(controller.signal);
      if (isAppError(error)) throw error;
      throw new AppError(
        CODES.MODEL_UNAVAILABLE,
        `reading the model's answer failed: ${scrub(networkMessage(error))}`,
        { retryable: true },
      );
    } finally {
      clearTimeout(timer);
      input.signal.removeEventListener("abort", forward);
    }
  };

  for (let n = 1; ; n++) {
    const outcome = await attempt();
    if ("turn" in outcome) return outcome.turn;
    const { status, message, after } = outcome.retry;
    const what = status === undefined ? message : `HTTP ${status}: ${message}`;
    if (n >= limits.maxAttempts)
      throw new AppError(
        CODES.MODEL_UNAVAILABLE,
        `the model endpoint still failed after ${n} attempts (${what})`,
        { retryable: true, ...(status === undefined ? {} : { details: { status } }) },
      );
    if (after !== undefined && after > limits.maxRetryAfterMs)
      throw new AppError(
        CODES.MODEL_UNAVAILABLE,
        `the model endpoint asks to wait ${Math.ceil(after / 1000)} s (${what}), longer than the ${limits.maxRetryAfterMs / 1000} s a step waits`,
        { retryable: true, details: { status, retryAfterMs: after } },
      );
    const delayMs = after ?? retryDelay(policy, n, input.random);
    input.onRetry?.({
      attempt: n + 1,
      delayMs,
      ...(status === undefined ? {} : { status }),
      message: what,
    });
    try {
      await sleep(delayMs, input.signal);
    } catch {
      throw abortReason(input.signal);
    }
  }
};
