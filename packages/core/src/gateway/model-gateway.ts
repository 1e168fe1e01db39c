/**
 * The model gateway: the only way an agent step reaches a model. It listens on 127.0.0.1
 * and/or a unix socket (which a no-network sandbox binds in, reached through the loopback
 * forwarder), and for each vendor API request checks the step's token, swaps it for the
 * team's real key, forwards to the one endpoint bound to that registration, streams the
 * answer back as it comes, and meters tokens and cost per request. Nothing else is
 * answered: unknown paths get 404, and the request never chooses where it goes.
 */
import { randomBytes } from "node:crypto";
import { chmod, rm } from "node:fs/promises";
import {
  Agent as HttpAgent,
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import { Agent as HttpsAgent } from "node:https";
import type { AddressInfo } from "node:net";
import { egressLookup } from "../egress/egress-lookup";
import { AppError, isAppError } from "../errors";
import { Scrubber } from "../secrets";
import { forwardRequest, type ForwardHandle, type ParsedUpstream } from "./forward-request";
import { errorBody, sendJson, type GatewayErrorCode } from "./gateway-errors";
import {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_TIMEOUTS,
  type GatewayOptions,
  type MeterEvent,
  type RegisterOptions,
  type Registration,
  type Vendor,
} from "./gateway-types";
import { meterEventOf } from "./meter-event";
import { DEFAULT_PRICES } from "./price-table";
import { readBody } from "./read-request";
import { parseRegistration } from "./parse-registration";
import { presentedTokens, StepTokens } from "./step-tokens";
import { isKnownRoute, PROBE_PATHS, routeFor, stepBaseUrl } from "./vendor-routes";

export type ModelGateway = {
  /** `http://127.0.0.1:<port>`, or null without a TCP listener. */
  origin: string | null;
  port: number | null;
  socketPath: string | null;
  register(options: RegisterOptions): Registration;
  /** Revokes every registration (their meter calls made), then stops listening. */
  close(): Promise<void>;
};

/** A request of a registration still running: `done` settles after its meter call. */
type InFlight = { abort: ForwardHandle["abort"]; done: Promise<unknown> };

type Entry = {
  vendor: Vendor;
  upstream: ParsedUpstream;
  meter: RegisterOptions["meter"];
  label: string | undefined;
  admit: RegisterOptions["admit"];
  token: string;
  revoked: boolean;
  inFlight: Set<InFlight>;
};

const listen = (server: Server, target: { port: number; host: string } | string) =>
  new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    const done = () => {
      server.off("error", reject);
      resolve();
    };
    if (typeof target === "string") server.listen(target, done);
    else server.listen(target.port, target.host, done);
  });

const short = (text: string) => (text.length > 120 ? `${text.slice(0, 120)}…` : text);

/** Starts the model gateway and listens on TCP, a socket file or both. */
export const startModelGateway = async (options: GatewayOptions = {}): Promise<ModelGateway> => {
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const prices = { ...DEFAULT_PRICES, ...options.prices };
  const keys = new Scrubber();
  const log = (...[level, message, fields]: Parameters<NonNullable<GatewayOptions["log"]>>) => {
    if (!options.log) return;
    const clean = fields
      ? Object.fromEntries(
          Object.entries(fields).map(([k, v]) => [k, typeof v === "string" ? keys.scrub(v) : v]),
        )
      : undefined;
    options.log(level, keys.scrub(message), clean);
  };
  const tokens = new StepTokens<Entry>();
  const entries = new Set<Entry>();
  // Upstream addresses are judged as they are connected to (egress-lookup.ts).
  const lookupFor = (protocol: string) =>
    options.egress ? { lookup: egressLookup(options.egress, protocol) } : {};
  const agents = {
    http: new HttpAgent({ keepAlive: true, ...lookupFor("http:") }),
    https: new HttpsAgent({ keepAlive: true, ...lookupFor("https:") }),
  };

  /** Answers with the gateway's own JSON error; nothing the client sent goes anywhere. */
  const refuse = (
    req: IncomingMessage,
    res: ServerResponse,
    requestId: string,
    [status, code, message]: [number, GatewayErrorCode, string],
  ) => {
    log("warn", "model gateway refused a request", {
      requestId,
      status,
      code,
      method: req.method,
      path: short((req.url ?? "").split("?")[0] ?? ""),
    });
    sendJson(res, status, errorBody(status, code, message), { connection: "close" });
    req.resume(); // drain what the client still sends
  };

  const meter = (entry: Entry, event: MeterEvent | undefined) => {
    if (!event) return;
    try {
      entry.meter(event);
    } catch (error) {
      log("error", "model gateway meter failed", {
        requestId: event.requestId,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  };

  /** Why the registration's owner refuses the next request (its budget is spent), or undefined. */
  const admission = (entry: Entry): string | undefined => {
    try {
      entry.admit?.();
      return undefined;
    } catch (error) {
      if (isAppError(error) && error.code === "USER.BUDGET.EXCEEDED") return error.userMessage;
      throw error;
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const started = Date.now();
    const requestId = `gw_${randomBytes(9).toString("base64url")}`;
    res.setHeader("x-switchyard-request-id", requestId);
    const no = (...refusal: [number, GatewayErrorCode, string]) =>
      refuse(req, res, requestId, refusal);
    const unauthorized = [
      401,
      "UNAUTHORIZED",
      "missing, unknown or revoked gateway token",
    ] as const;
    const target = req.url ?? "";
    const method = (req.method ?? "GET").toUpperCase();
    if (!target.startsWith("/")) return no(400, "BAD_REQUEST", "the request target must be a path");
    const q = target.indexOf("?");
    const pathname = q < 0 ? target : target.slice(0, q);
    const query = new URLSearchParams(q < 0 ? "" : target.slice(q + 1));
    if (method === "HEAD" && PROBE_PATHS.has(pathname)) {
      res.writeHead(200);
      return void res.end();
    }
    if (!isKnownRoute(method, pathname))
      return no(404, "NOT_FOUND", `no model API at ${method} ${short(pathname)}`);
    const entry = tokens.find(presentedTokens(req.headers, query));
    if (!entry || entry.revoked) return no(...unauthorized);
    const route = routeFor(entry.vendor, method, pathname);
    if (!route)
      return no(404, "NOT_FOUND", `no ${entry.vendor} API at ${method} ${short(pathname)}`);
    const tooLarge = [
      413,
      "PAYLOAD_TOO_LARGE",
      `the request body is larger than ${maxBody} bytes`,
    ] as const;
    if (Number(req.headers["content-length"] ?? 0) > maxBody) return no(...tooLarge);

    const reading: InFlight = { abort: () => req.destroy(), done: Promise.resolve() };
    entry.inFlight.add(reading);
    let body: Buffer | "too-large";
    try {
      body = await readBody(req, maxBody);
    } catch {
      return;
    } finally {
      entry.inFlight.delete(reading);
    }
    if (body === "too-large") return no(...tooLarge);
    if (entry.revoked) return no(...unauthorized);
    const refusal = admission(entry);
    if (refusal) return no(403, "USER.BUDGET.EXCEEDED", refusal);

    query.delete("key");
    const exchange = forwardRequest({
      ...(options.egress ? { egress: options.egress } : {}),
      req,
      res,
      method,
      route,
      query: query.toString(),
      body,
      upstream: entry.upstream,
      agents,
      timeouts,
      scrub: (text) => keys.scrub(text),
    });
    const tracked: InFlight = {
      abort: exchange.abort,
      done: exchange.done.then((outcome) => {
        entry.inFlight.delete(tracked);
        const event = meterEventOf({
          requestId,
          vendor: entry.vendor,
          route,
          body,
          outcome,
          prices,
        });
        meter(entry, event && { ...event, startedAtMs: started });
        log(outcome.complete ? "info" : "warn", "model request", {
          requestId,
          label: entry.label,
          vendor: entry.vendor,
          method,
          path: short(pathname),
          status: outcome.status,
          ms: Date.now() - started,
          model: event?.model,
          inputTokens: event?.inputTokens,
          outputTokens: event?.outputTokens,
          costUsd: event?.costUsd,
          complete: outcome.complete,
          error: outcome.error,
        });
      }),
    };
    entry.inFlight.add(tracked);
    await tracked.done;
  };

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((error: unknown) => {
      log("error", "model gateway internal error", {
        error: error instanceof Error ? error.message : String(error),
      });
      if (!res.headersSent) sendJson(res, 500, errorBody(500, "INTERNAL", "internal error"));
      else res.destroy();
    });
  };

  const servers: Server[] = [];
  const newServer = () => {
    const server = createServer({ noDelay: true, headersTimeout: 30_000 }, onRequest);
    servers.push(server);
    return server;
  };
  const tcp = options.tcp ?? true;
  let port: number | null = null;
  let origin: string | null = null;
  const socketPath = options.socketPath ?? null;
  if (!tcp && !socketPath)
    throw new AppError(
      "SYSTEM.CONFIG",
      "the model gateway needs a TCP listener, a socket path, or both",
    );
  try {
    if (tcp) {
      const host = (tcp === true ? undefined : tcp.host) ?? "127.0.0.1";
      const server = newServer();
      await listen(server, { port: tcp === true ? 0 : (tcp.port ?? 0), host });
      port = (server.address() as AddressInfo).port;
      origin = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
    }
    if (socketPath) {
      await listen(newServer(), socketPath);
      await chmod(socketPath, options.socketMode ?? 0o666);
    }
  } catch (error) {
    for (const server of servers) server.close();
    throw new AppError(
      "SYSTEM.MODEL_GATEWAY.LISTEN",
      `the model gateway could not listen: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }

  let closed = false;

  /** Refuses the token, ends the registration's requests, and waits for their meter calls. */
  const revoke = async (entry: Entry) => {
    tokens.revoke(entry.token);
    entry.revoked = true;
    entries.delete(entry);
    const pending = [...entry.inFlight];
    for (const p of pending) p.abort(401, "UNAUTHORIZED", "the step's gateway token was revoked");
    await Promise.all(pending.map((p) => p.done));
  };

  return {
    origin,
    port,
    socketPath,
    register(registerOptions) {
      if (closed) throw new AppError("SYSTEM.MODEL_GATEWAY.CLOSED", "the model gateway is closed");
      const parsed = parseRegistration(registerOptions);
      keys.add(parsed.upstream.apiKey);
      const entry: Entry = { ...parsed, token: "", revoked: false, inFlight: new Set() };
      entry.token = tokens.issue(entry);
      entries.add(entry);
      return {
        token: entry.token,
        baseUrl: origin ? stepBaseUrl(entry.vendor, origin) : null,
        revoke: () => revoke(entry),
      };
    },
    async close() {
      closed = true;
      await Promise.all([...entries].map(revoke));
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.close(() => resolve());
              server.closeAllConnections();
            }),
        ),
      );
      agents.http.destroy();
      agents.https.destroy();
      if (socketPath) await rm(socketPath, { force: true });
    },
  };
};
