/**
 * AWF's `http.request` over a fetch the caller gives (the worker's goes through the egress
 * rule): GET/POST/PUT/DELETE with the request's timeout, the answer's body kept up to 1 MB
 * (`body_truncated` past it), its headers under canonical names with repeated values
 * joined by ", ". A status listed in `retryable_status_codes` fails the attempt, so `retry:`
 * runs it again; any other status is an answer the workflow routes on.
 */
import { AppError, isAppError } from "../errors/app-error";
import type { FetchLike } from "../egress/egress-fetch";
import type { OperationResult } from "../workflow/model/engine-ports";

const HTTP_BODY_CAP = 1024 * 1024;
const DEFAULT_TIMEOUT_S = 30;

/** `content-type` → `Content-Type`, as Go's net/http names headers (AWF's canonical form). */
const canonicalHeader = (name: string) =>
  name
    .split("-")
    .map((w) => (w ? w[0]!.toUpperCase() + w.slice(1).toLowerCase() : w))
    .join("-");

const canonicalHeaders = (headers: Headers): Record<string, string> => {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    const key = canonicalHeader(name);
    out[key] = out[key] === undefined ? value : `${out[key]}, ${value}`;
  });
  const cookies = headers.getSetCookie();
  if (cookies.length) out["Set-Cookie"] = cookies.join(", ");
  return out;
};

/** Reads at most `cap` bytes of a body, then stops reading. */
export const readCapped = async (
  res: Response,
  cap: number,
): Promise<{ text: string; truncated: boolean }> => {
  if (!res.body) return { text: "", truncated: false };
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > cap) {
      chunks.push(value.subarray(0, cap - size));
      truncated = true;
      await reader.cancel().catch(() => undefined);
      break;
    }
    chunks.push(value);
    size += value.byteLength;
  }
  return { text: await new Blob(chunks).text(), truncated };
};

/** A URL without its user and password, for what people read. */
export const shownUrl = (url: string) => {
  try {
    const u = new URL(url);
    u.username = "";
    u.password = "";
    return u.toString();
  } catch {
    return url;
  }
};

/** The failure of a request that got no answer: the egress rule's own code, or a timeout, or unreachable. */
export const requestFailure = (
  error: unknown,
  what: string,
  timedOut: boolean,
  timeoutS: number,
): NonNullable<OperationResult["error"]> => {
  if (timedOut)
    return { code: "EXECUTION.TIMEOUT", message: `${what} timed out after ${timeoutS}s` };
  if (isAppError(error)) return { code: error.code, message: error.message };
  return {
    code: "EXECUTION.OPERATION_FAILED",
    message: `${what} failed: ${error instanceof Error ? error.message : String(error)}`,
  };
};

export const httpRequest = async (
  fetch: FetchLike,
  inputs: Record<string, unknown>,
  signal: AbortSignal,
): Promise<OperationResult> => {
  const url = String(inputs.url);
  const method = String(inputs.method).toUpperCase();
  if (!/^https?:\/\//i.test(url))
    throw new AppError(
      "USER.INPUT.VALIDATION_FAILED",
      `http.request: "url" must start with http:// or https://`,
    );
  if (!["GET", "POST", "PUT", "DELETE"].includes(method))
    throw new AppError(
      "USER.INPUT.VALIDATION_FAILED",
      `http.request: "method" must be one of GET, POST, PUT, DELETE, got "${method}"`,
    );
  const timeoutS = typeof inputs.timeout === "number" ? inputs.timeout : DEFAULT_TIMEOUT_S;
  const timer = AbortSignal.timeout(timeoutS * 1000);
  const headers = Object.fromEntries(
    Object.entries((inputs.headers as Record<string, unknown> | undefined) ?? {}).map(([k, v]) => [
      k,
      String(v),
    ]),
  );
  const body = typeof inputs.body === "string" ? inputs.body : undefined;
  const what = `${method} ${shownUrl(url)}`;
  let res: Response;
  let text: string;
  let truncated: boolean;
  try {
    res = await fetch(url, {
      method,
      headers,
      ...(body === undefined || method === "GET" ? {} : { body }),
      signal: AbortSignal.any([signal, timer]),
    });
    ({ text, truncated } = await readCapped(res, HTTP_BODY_CAP));
  } catch (error) {
    return {
      outputs: {},
      summary: `${what} → no answer`,
      error: requestFailure(error, what, timer.aborted && !signal.aborted, timeoutS),
    };
  }
  const outputs = {
    status_code: res.status,
    body: text,
    headers: canonicalHeaders(res.headers),
    body_truncated: truncated,
  };
  const retryable = ((inputs.retryable_status_codes as unknown[] | undefined) ?? []).map(Number);
  const summary = `${what} → ${res.status}${truncated ? " (body truncated at 1 MB)" : ""}`;
  if (retryable.includes(res.status))
    return {
      outputs,
      summary,
      error: {
        code: "EXECUTION.OPERATION_FAILED",
        message: `${what} answered ${res.status}, a retryable status`,
      },
    };
  return { outputs, summary };
};
