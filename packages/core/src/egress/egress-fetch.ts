/**
 * The one `fetch` for requests Switchyard makes on a user's behalf (OAuth discovery,
 * registration and tokens, http connectors, notifications, model endpoints). It is
 * undici's own fetch over an agent of its own, never the global one (inside Next.js the
 * global fetch is patched), and it holds the egress rule at every step: the URL before
 * anything is sent, each address at connect time, each redirect again. It bounds the
 * exchange (connect, time to headers, silence in the body, the whole; bytes of the
 * answer) and its errors name the host and what happened, never what the remote sent.
 */
import { Agent, buildConnector, fetch as undiciFetch } from "undici";
import { AppError } from "../errors";
import { egressLookup, literalRefusal, systemResolveAll, type ResolveAll } from "./egress-lookup";
import { checkEgressUrl, type EgressAllowList } from "./egress-policy";

export type EgressLimits = {
  /** to set up a connection, TCP and TLS */
  connectMs: number;
  /** from sending the request to the answer's headers; 0: no limit */
  headersMs: number;
  /** how long the answer's body may go silent; 0: no limit (event streams) */
  idleMs: number;
  /** the whole exchange, headers and body; undefined: no limit */
  totalMs?: number;
  /** bytes of an answer's body; more fails the read with EXECUTION.EGRESS.TOO_LARGE */
  maxBytes?: number;
  /** redirects followed (each judged again); 0: a redirect is answered as it came */
  maxRedirects: number;
};

/** What Switchyard's outbound code takes as its fetch. */
export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** A fetch that also closes its connections. */
export type EgressFetch = FetchLike & { close: () => Promise<void> };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];
const TIMEOUT_CODES = new Set([
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "ETIMEDOUT",
]);

const causes = (error: unknown): unknown[] => {
  const chain: unknown[] = [];
  for (let e = error; e && chain.length < 8; e = (e as { cause?: unknown }).cause) chain.push(e);
  return chain;
};

/** What a failed exchange becomes: the rule's refusal as it is, else a timeout or "unreachable" naming the host. */
const failure = (
  error: unknown,
  host: string,
  callerSignal: AbortSignal | null | undefined,
): unknown => {
  if (callerSignal?.aborted) return (callerSignal.reason as unknown) ?? error;
  const chain = causes(error);
  const app = chain.find((e): e is AppError => e instanceof AppError);
  if (app) return app;
  const code = chain
    .map((e) => (e as { code?: unknown }).code)
    .find((c): c is string => typeof c === "string");
  const timedOut =
    chain.some((e) => (e as { name?: unknown }).name === "TimeoutError") ||
    (code !== undefined && TIMEOUT_CODES.has(code));
  if (timedOut)
    return new AppError("EXECUTION.EGRESS.TIMEOUT", `${host} did not answer in time`, {
      retryable: true,
      details: { host },
    });
  return new AppError(
    "EXECUTION.EGRESS.UNREACHABLE",
    `${host} could not be reached${code ? ` (${code})` : ""}`,
    { retryable: true, details: { host, ...(code ? { code } : {}) } },
  );
};

const tooLarge = (host: string, max: number) =>
  new AppError("EXECUTION.EGRESS.TOO_LARGE", `the answer of ${host} is larger than ${max} bytes`, {
    details: { host, maxBytes: max },
  });

/** The answer with a body that counts its bytes and fails in our terms. */
const guardedAnswer = (
  res: Response,
  host: string,
  limits: EgressLimits,
  callerSignal: AbortSignal | null | undefined,
): Response => {
  const max = limits.maxBytes;
  const declared = Number(res.headers.get("content-length"));
  if (max !== undefined && Number.isFinite(declared) && declared > max) {
    void res.body?.cancel().catch(() => undefined);
    throw tooLarge(host, max);
  }
  if (!res.body) return res;
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  let seen = 0;
  const body = new ReadableStream<Uint8Array>({
    pull: async (controller) => {
      try {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        seen += value.byteLength;
        if (max !== undefined && seen > max) {
          void reader.cancel().catch(() => undefined);
          return controller.error(tooLarge(host, max));
        }
        controller.enqueue(value);
      } catch (error) {
        controller.error(failure(error, host, callerSignal));
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  const answer = new Response(body, {
    status: res.status,
    statusText: res.statusText,
    headers: res.headers,
  });
  Object.defineProperty(answer, "url", { value: res.url });
  return answer;
};

const sameOrigin = (a: URL, b: URL) => a.origin === b.origin;

/**
 * A fetch under the egress rule `list` and `limits`. `resolveAll` replaces the system
 * resolver (tests use it to play DNS answers that change between lookups).
 */
export const createEgressFetch = (
  list: EgressAllowList,
  limits: EgressLimits,
  options: { resolveAll?: ResolveAll } = {},
): EgressFetch => {
  const resolveAll = options.resolveAll ?? systemResolveAll;
  const connectors = {
    "https:": buildConnector({
      timeout: limits.connectMs,
      lookup: egressLookup(list, "https:", resolveAll),
    }),
    "http:": buildConnector({
      timeout: limits.connectMs,
      lookup: egressLookup(list, "http:", resolveAll),
    }),
  };
  const agent = new Agent({
    headersTimeout: limits.headersMs,
    bodyTimeout: limits.idleMs,
    connect: (opts, callback) => {
      const refused = literalRefusal(list, opts.hostname, opts.protocol);
      if (refused) return callback(refused, null);
      return (opts.protocol === "http:" ? connectors["http:"] : connectors["https:"])(
        opts,
        callback,
      );
    },
  });

  const egressFetch = async (input: string | URL, init: RequestInit = {}): Promise<Response> => {
    let url = checkEgressUrl(list, input);
    const callerSignal = init.signal;
    const signals = [
      callerSignal,
      limits.totalMs === undefined ? undefined : AbortSignal.timeout(limits.totalMs),
    ].filter((s): s is AbortSignal => !!s);
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    let method = (init.method ?? "GET").toUpperCase();
    let body = init.body;
    const headers = new Headers(init.headers);
    for (let hop = 0; ; hop++) {
      let res: Response;
      try {
        // undici's own Response: the same class as the global one in every way callers use (its types differ under the DOM lib).
        const sent: unknown = await undiciFetch(url, {
          ...init,
          method,
          body: body as never,
          headers: headers as never,
          redirect: "manual",
          ...(signal ? { signal } : {}),
          dispatcher: agent,
        });
        res = sent as Response;
      } catch (error) {
        throw failure(error, url.hostname, callerSignal);
      }
      const location = res.headers.get("location");
      if (
        !REDIRECTS.has(res.status) ||
        !location ||
        init.redirect === "manual" ||
        limits.maxRedirects === 0
      )
        return guardedAnswer(res, url.hostname, limits, callerSignal);
      await res.body?.cancel().catch(() => undefined);
      if (init.redirect === "error")
        throw new AppError(
          "EXECUTION.EGRESS.UNREACHABLE",
          `${url.hostname} answered with a redirect`,
          { details: { host: url.hostname } },
        );
      if (hop >= limits.maxRedirects)
        throw new AppError(
          "EXECUTION.EGRESS.UNREACHABLE",
          `${url.hostname}: more than ${limits.maxRedirects} redirects`,
          { details: { host: url.hostname } },
        );
      const next = checkEgressUrl(list, new URL(location, url));
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === "POST")) {
        if (method !== "HEAD") method = "GET";
        body = undefined;
        headers.delete("content-type");
        headers.delete("content-length");
      } else if (body instanceof ReadableStream) {
        throw new AppError(
          "EXECUTION.EGRESS.UNREACHABLE",
          `${url.hostname} redirected a request whose body cannot be sent twice`,
          { details: { host: url.hostname } },
        );
      }
      if (!sameOrigin(url, next)) for (const h of CREDENTIAL_HEADERS) headers.delete(h);
      url = next;
    }
  };
  return Object.assign(egressFetch, { close: () => agent.close() });
};
