/**
 * One request's trip upstream: sends it to the registration's endpoint with the real key,
 * streams a success body to the client chunk by chunk while the usage reader reads along,
 * relays an error body with the key scrubbed out, and turns an unreachable or silent
 * upstream into a JSON 502/504 (or a cut stream once the body has started). It settles
 * exactly once, with what the meter needs.
 */
import type { Agent as HttpAgent, IncomingMessage, ServerResponse } from "node:http";
import { request as httpRequest } from "node:http";
import { request as httpsRequest, type Agent as HttpsAgent } from "node:https";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { checkEgressUrl, type EgressAllowList } from "../egress/egress-policy";
import { AppError } from "../errors";
import { clientHeaders, upstreamHeaders } from "./forward-headers";
import { errorBody, sendJson, type GatewayErrorCode } from "./gateway-errors";
import type { GatewayTimeouts, HeaderStyle } from "./gateway-types";
import { UsageReader, type UsageReading } from "./usage-reader";
import type { Route } from "./vendor-routes";

/** Error bodies are read whole (to scrub them) up to this size; the rest is dropped. */
const ERROR_BODY_CAP = 1024 * 1024;

export type ParsedUpstream = {
  secure: boolean;
  hostname: string;
  port: number;
  /** `host` header value. */
  host: string;
  /** Path prefix of the base URL, without a trailing slash. */
  basePath: string;
  apiKey: string;
  headerStyle: HeaderStyle;
  fixed: Record<string, string>;
};

export type ForwardContext = {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  route: Route;
  /** Query string without `?` (the client's `key` removed). */
  query: string;
  body: Buffer;
  upstream: ParsedUpstream;
  agents: { http: HttpAgent; https: HttpsAgent };
  timeouts: GatewayTimeouts;
  /** Removes the registration's key from text bound for the client. */
  scrub: (text: string) => string;
  /** The egress rule; a literal upstream address is judged here, names by the agents' lookup. */
  egress?: EgressAllowList;
};

export type ForwardOutcome = {
  status: number;
  complete: boolean;
  reading: UsageReading | undefined;
  upstreamRequestId: string | undefined;
  /** Why it ended early (for the log); never holds a secret. */
  error?: string;
};

export type ForwardHandle = {
  done: Promise<ForwardOutcome>;
  /** Ends the exchange now: a JSON error if nothing was sent yet, else a cut stream. */
  abort: (status: number, code: GatewayErrorCode, message: string) => void;
};

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

const decode = (body: Buffer, encoding: string): Buffer => {
  switch (encoding) {
    case "gzip":
    case "x-gzip":
      return gunzipSync(body, { maxOutputLength: ERROR_BODY_CAP });
    case "deflate":
      return inflateSync(body, { maxOutputLength: ERROR_BODY_CAP });
    case "br":
      return brotliDecompressSync(body, { maxOutputLength: ERROR_BODY_CAP });
    default:
      return body;
  }
};

/** The egress rule's refusal of the upstream before any lookup (scheme, a literal address), or undefined. */
const upstreamRefusal = (egress: EgressAllowList, protocol: string, host: string) => {
  try {
    checkEgressUrl(egress, `${protocol}//${host}/`);
    return undefined;
  } catch (error) {
    return error instanceof AppError ? error : undefined;
  }
};

export const forwardRequest = (ctx: ForwardContext): ForwardHandle => {
  const { req, res, route, upstream, timeouts } = ctx;
  let settle!: (outcome: ForwardOutcome) => void;
  const done = new Promise<ForwardOutcome>((resolve) => (settle = resolve));
  let finished = false;
  let status = 0;
  let reader: UsageReader | undefined;
  let upstreamRequestId: string | undefined;
  let timer: NodeJS.Timeout | undefined;

  const arm = (ms: number, onFire: () => void) => {
    clearTimeout(timer);
    if (!finished) timer = setTimeout(onFire, ms);
  };

  const finish = (complete: boolean, error?: string) => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    let reading: UsageReading | undefined;
    try {
      reading = reader?.end();
    } catch {
      reading = undefined;
    }
    settle({ status, complete, reading, upstreamRequestId, ...(error ? { error } : {}) });
  };

  const fail = (httpStatus: number, code: GatewayErrorCode, message: string) => {
    if (finished) return;
    upReq.destroy();
    if (!res.headersSent) {
      status = httpStatus;
      sendJson(res, httpStatus, errorBody(httpStatus, code, message));
    } else res.destroy();
    finish(false, message);
  };

  const bodyLength = ctx.method === "GET" && ctx.body.length === 0 ? undefined : ctx.body.length;
  const protocol = upstream.secure ? "https:" : "http:";
  const refused = ctx.egress ? upstreamRefusal(ctx.egress, protocol, upstream.host) : undefined;
  const upReq = (upstream.secure ? httpsRequest : httpRequest)({
    protocol: upstream.secure ? "https:" : "http:",
    hostname: upstream.hostname,
    port: upstream.port,
    method: ctx.method,
    path: `${upstream.basePath}${route.upstreamPath}${ctx.query ? `?${ctx.query}` : ""}`,
    headers: upstreamHeaders(req.headers, {
      apiKey: upstream.apiKey,
      headerStyle: upstream.headerStyle,
      fixed: upstream.fixed,
      host: upstream.host,
      bodyLength,
    }),
    agent: upstream.secure ? ctx.agents.https : ctx.agents.http,
  });

  arm(timeouts.connectMs, () =>
    fail(
      502,
      "EXECUTION.MODEL_GATEWAY.UPSTREAM_UNREACHABLE",
      `no connection to the upstream ${upstream.host} within ${timeouts.connectMs} ms`,
    ),
  );
  upReq.on("socket", (socket) => {
    const connected = () =>
      arm(timeouts.responseMs, () =>
        fail(
          504,
          "EXECUTION.MODEL_GATEWAY.UPSTREAM_TIMEOUT",
          `the upstream ${upstream.host} sent no response within ${timeouts.responseMs} ms`,
        ),
      );
    if (socket.connecting) socket.once("connect", connected);
    else connected();
  });
  upReq.on("error", (error: NodeJS.ErrnoException) =>
    error instanceof AppError && error.code === "USER.EGRESS.DENIED"
      ? fail(403, "USER.EGRESS.DENIED", error.message)
      : fail(
          502,
          "EXECUTION.MODEL_GATEWAY.UPSTREAM_UNREACHABLE",
          `the upstream ${upstream.host} could not be reached (${error.code ?? "connection failed"})`,
        ),
  );
  if (refused) upReq.destroy(refused);
  const silent = () =>
    arm(timeouts.idleMs, () =>
      fail(
        502,
        "EXECUTION.MODEL_GATEWAY.UPSTREAM_TIMEOUT",
        `the upstream ${upstream.host} went silent for ${timeouts.idleMs} ms`,
      ),
    );

  const relayError = (upRes: IncomingMessage) => {
    const chunks: Buffer[] = [];
    let size = 0;
    upRes.on("data", (chunk: Buffer) => {
      silent();
      if (size < ERROR_BODY_CAP) chunks.push(chunk);
      size += chunk.length;
    });
    upRes.on("end", () => {
      if (finished) return;
      const raw = Buffer.concat(chunks).subarray(0, ERROR_BODY_CAP);
      let text: string;
      try {
        text = ctx.scrub(
          decode(raw, String(upRes.headers["content-encoding"] ?? "")).toString("utf8"),
        );
      } catch {
        text = "";
      }
      const headers = clientHeaders(upRes.headers, ctx.scrub, true);
      delete headers["content-encoding"];
      res.writeHead(status, { ...headers, "content-length": Buffer.byteLength(text) });
      res.end(text);
      finish(true);
    });
  };

  upReq.on("response", (upRes) => {
    status = upRes.statusCode ?? 502;
    upstreamRequestId = first(upRes.headers["request-id"] ?? upRes.headers["x-request-id"]);
    silent();
    upRes.on("close", () => {
      if (!upRes.complete)
        fail(
          502,
          "EXECUTION.MODEL_GATEWAY.UPSTREAM_UNREACHABLE",
          "the upstream cut the response short",
        );
    });
    if (status >= 400) return relayError(upRes);
    const type = String(upRes.headers["content-type"] ?? "").toLowerCase();
    const format = type.includes("text/event-stream")
      ? "sse"
      : type.includes("json")
        ? "json"
        : undefined;
    const encoding = String(upRes.headers["content-encoding"] ?? "identity").toLowerCase();
    if (route.api && format && encoding === "identity") reader = new UsageReader(route.api, format);
    res.writeHead(status, clientHeaders(upRes.headers, ctx.scrub, false));
    res.flushHeaders();
    upRes.on("data", (chunk: Buffer) => {
      silent();
      try {
        reader?.write(chunk);
      } catch {
        reader = undefined;
      }
      if (!res.write(chunk)) {
        upRes.pause();
        res.once("drain", () => {
          silent();
          upRes.resume();
        });
      }
    });
    upRes.on("end", () => {
      if (finished) return;
      res.end();
      finish(true);
    });
  });

  res.on("close", () => {
    if (finished) return;
    upReq.destroy();
    finish(false, "the client went away");
  });

  upReq.end(bodyLength === undefined ? undefined : ctx.body);
  return { done, abort: fail };
};
