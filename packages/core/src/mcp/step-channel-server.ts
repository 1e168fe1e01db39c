/**
 * The worker's end of a step channel, as a reference the worker reuses: listens on a
 * fresh unix socket in a private folder, accepts the one proxy that presents the token
 * (then unlinks the path), and serves its connector calls through a ConnectorHost after
 * checking the lane gate again at call time. Results are capped and scrubbed here, where
 * credentials live; records and spans from the proxy are scrubbed again and emitted on the
 * attempt's events (`tool.recorded`, `span.ended`). In a replay (`replay`) every call, built-in
 * or connector, is answered from the recorded attempt's calls and no connector is called.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ConnectorHost, LaneGate } from "../connectors/connector-host";
import { AppError } from "../errors";
import type { ChannelEventEmitter } from "../events";
import { recordedResult } from "../replay/recorded-result";
import type { ReplayBook, ReplayPlan } from "../replay/replay-book";
import { BUILTIN_NAMES, capResult, ToolFailure, type CatalogEntry } from "../tools";
import type { SpanRecord, ToolCallRecord } from "./call-record";
import { readLines, writeLine } from "./json-lines";
import { Redactor } from "./redact";
import {
  proxyMessage,
  STEP_CHANNEL_VERSION,
  type HostMessage,
  type ProxyMessage,
} from "./step-channel-protocol";

export type StepChannelServerOptions = {
  host: ConnectorHost;
  gate: LaneGate;
  lane: string;
  /** The step's resolved connector tools; calls are routed by this table, never by what the proxy claims. */
  catalog: readonly CatalogEntry[];
  /** Values scrubbed here from results, records and spans (credentials included); never sent. */
  secrets?: readonly string[];
  /** Values the step already holds, sent to the proxy so it scrubs them too. */
  sharedSecrets?: readonly string[];
  /**
   * Where the proxy's records and spans go; the proxy holds a call's answer until what the
   * `tool.recorded` subscribers returned has settled (the record is stored).
   */
  events?: ChannelEventEmitter;
  /**
   * Parent folder of the socket's private folder.
   * @default os.tmpdir()
   */
  dir?: string;
  /**
   * How long the proxy may take to say ready on the channel.
   * @default 10_000 (10 s)
   */
  readyTimeoutMs?: number;
  /**
   * A replay: each call is answered from `book` (the recorded result, `isError` too), never
   * run; with none left, a USER.REPLAY.NO_RECORDING error, or with `live_builtins` `live`
   * for a built-in (the proxy runs it in the sandbox). Connector tools never run live.
   */
  replay?: { book: ReplayBook; unmatched: ReplayPlan["unmatched"] };
  /**
   * Runs before every call: a connector call here (after the lane gate), a built-in when the
   * proxy asks (`gate`, for the built-ins its config lists). Resolves when the call may run;
   * throws an AppError (or ToolFailure) to refuse it, whose code and message the agent gets.
   * It may hold the call for as long as a person takes to answer; `signal` aborts when the
   * proxy cancels the call or the channel closes.
   */
  beforeCall?: (call: GatedCall, signal: AbortSignal) => Promise<void>;
};

/** A call the worker allows first: the tool's final name, where it runs, its arguments. */
type GatedCall = {
  tool: string;
  /** `builtin`, or the connector's id */
  source: string;
  arguments: Record<string, unknown>;
};

type ChannelReady = { tools: string[] };
type ChannelClosed = { reason: string };

export type StepChannel = {
  path: string;
  token: string;
  /** Resolves on `ready`; rejects on `fatal`, a timeout, or the channel closing first. */
  ready: Promise<ChannelReady>;
  closed: Promise<ChannelClosed>;
  /** A proxy presented the token: it started and reached the channel. */
  readonly connected: boolean;
  close(): Promise<void>;
};

/** The code a refusal carries: an AppError's, or a ToolFailure's. */
const codeOf = (error: unknown): string | undefined =>
  error instanceof AppError
    ? error.code
    : error instanceof ToolFailure && error.code !== "cancelled"
      ? error.code
      : undefined;

/** Opens a step's channel socket, which accepts the one proxy that presents the token. */
export const startStepChannel = async (options: StepChannelServerOptions): Promise<StepChannel> => {
  const folder = await mkdtemp(path.join(options.dir ?? tmpdir(), "sy-ch-"));
  const socketPath = path.join(folder, "s");
  const token = randomBytes(24).toString("base64url");
  const redactor = new Redactor().addSecrets([
    ...(options.secrets ?? []),
    ...(options.sharedSecrets ?? []),
  ]);
  const byName = new Map(options.catalog.map((e) => [e.name, e]));
  const inFlight = new Map<number, AbortController>();
  let peer: Socket | undefined;
  let readyState: "waiting" | "ready" | "failed" = "waiting";

  let resolveReady!: (r: ChannelReady) => void;
  let rejectReady!: (e: Error) => void;
  const ready = new Promise<ChannelReady>(
    (res, rej) => ((resolveReady = res), (rejectReady = rej)),
  );
  ready.catch(() => undefined);
  let resolveClosed!: (c: ChannelClosed) => void;
  const closed = new Promise<ChannelClosed>((res) => (resolveClosed = res));

  const failReady = (error: Error) => {
    if (readyState !== "waiting") return;
    readyState = "failed";
    rejectReady(error);
  };
  const readyTimer = setTimeout(
    () =>
      failReady(
        new AppError(
          "EXECUTION.MCP_PROXY.NOT_READY",
          `the proxy did not say ready within ${options.readyTimeoutMs ?? 10_000} ms`,
        ),
      ),
    options.readyTimeoutMs ?? 10_000,
  );

  const expected = Buffer.from(token);
  const tokenMatches = (given: string) => {
    const b = Buffer.from(given);
    return b.length === expected.length && timingSafeEqual(b, expected);
  };

  const send = (message: HostMessage) => peer && writeLine(peer, message);

  const answerFromRecording = (
    id: number,
    tool: string,
    args: Record<string, unknown>,
    replay: NonNullable<StepChannelServerOptions["replay"]>,
  ) => {
    const recorded = replay.book.take(tool, args);
    if (recorded)
      return send({ type: "result", id, result: redactor.secrets(recordedResult(recorded)) });
    const builtin = !byName.has(tool) && (BUILTIN_NAMES as readonly string[]).includes(tool);
    if (builtin && replay.unmatched === "live_builtins") return send({ type: "live", id });
    send({
      type: "error",
      id,
      code: "USER.REPLAY.NO_RECORDING",
      message: `the recorded attempt has no call of ${tool} with these arguments left${builtin ? "" : " (a connector tool never runs in a replay)"}`,
    });
  };

  const handleCall = async (
    id: number,
    tool: string,
    args: Record<string, unknown>,
    trace: { traceId: string; spanId: string } | undefined,
  ) => {
    if (options.replay) return answerFromRecording(id, tool, args, options.replay);
    const entry = byName.get(tool);
    if (!entry)
      return send({
        type: "error",
        id,
        code: "USER.MCP_PROXY.UNKNOWN_CONNECTOR",
        message: `${tool} is not a connector tool of this step`,
      });
    const controller = new AbortController();
    inFlight.set(id, controller);
    try {
      if (!(await options.gate.allows(entry.connector, options.lane))) {
        return send({
          type: "error",
          id,
          code: "USER.MCP_PROXY.LANE_DENIED",
          message: `lane "${options.lane}" may not reach connector "${entry.connector}"`,
        });
      }
      await options.beforeCall?.(
        { tool, source: entry.connector, arguments: args },
        controller.signal,
      );
      if (controller.signal.aborted) return;
      const result = await options.host.callTool(
        entry.connector,
        entry.tool,
        args,
        controller.signal,
        trace,
      );
      if (controller.signal.aborted) return;
      send({ type: "result", id, result: redactor.secrets(capResult(result)) });
    } catch (error) {
      if (controller.signal.aborted) return;
      const code = codeOf(error) ?? "EXECUTION.CONNECTOR_FAILED";
      send({
        type: "error",
        id,
        code,
        message: redactor.text(error instanceof Error ? error.message : String(error)),
      });
    } finally {
      inFlight.delete(id);
    }
  };

  /** A built-in the proxy asks about before it runs it: `proceed`, or the refusal as an error. */
  const handleGate = async (id: number, tool: string, args: Record<string, unknown>) => {
    const controller = new AbortController();
    inFlight.set(id, controller);
    try {
      await options.beforeCall?.({ tool, source: "builtin", arguments: args }, controller.signal);
      if (!controller.signal.aborted) send({ type: "proceed", id });
    } catch (error) {
      if (controller.signal.aborted) return;
      send({
        type: "error",
        id,
        code: codeOf(error) ?? "SYSTEM.MCP_PROXY.CHANNEL",
        message: redactor.text(error instanceof Error ? error.message : String(error)),
      });
    } finally {
      inFlight.delete(id);
    }
  };

  const onMessage = (message: ProxyMessage) => {
    switch (message.type) {
      case "hello":
        return;
      case "ready":
        if (readyState === "waiting") {
          readyState = "ready";
          clearTimeout(readyTimer);
          resolveReady({ tools: message.tools });
        }
        return;
      case "fatal":
        return failReady(new AppError(message.code, redactor.text(message.message)));
      case "call":
        void handleCall(
          message.id,
          message.tool,
          message.arguments,
          message.trace_id && message.span_id
            ? { traceId: message.trace_id, spanId: message.span_id }
            : undefined,
        );
        return;
      case "gate":
        void handleGate(message.id, message.tool, message.arguments);
        return;
      case "cancel":
        inFlight.get(message.id)?.abort();
        return;
      case "record": {
        const { ack } = message;
        const storing = options.events?.emit(
          "tool.recorded",
          redactor.value(message.record) as ToolCallRecord,
        );
        if (ack === undefined) return;
        // Stored or not (the worker reports a failed write itself), the proxy may answer.
        const stored = () => void send({ type: "stored", ack });
        if (storing) void storing.then(stored);
        else stored();
        return;
      }
      case "span":
        void options.events?.emit("span.ended", redactor.value(message.span) as SpanRecord);
        return;
    }
  };

  const server: Server = createServer((socket) => {
    let greeted = false;
    socket.on("error", () => undefined);
    readLines(
      socket,
      (raw) => {
        const parsed = proxyMessage.safeParse(raw);
        if (!greeted) {
          if (
            peer ||
            !parsed.success ||
            parsed.data.type !== "hello" ||
            !tokenMatches(parsed.data.token)
          ) {
            writeLine(socket, {
              type: "reject",
              message: "bad hello or token",
            } satisfies HostMessage);
            socket.destroy();
            return;
          }
          if (parsed.data.v !== STEP_CHANNEL_VERSION) {
            writeLine(socket, {
              type: "reject",
              message: `protocol version ${parsed.data.v} is not ${STEP_CHANNEL_VERSION}`,
            } satisfies HostMessage);
            socket.destroy();
            return;
          }
          greeted = true;
          peer = socket;
          // One proxy per step: stop listening and remove the path.
          server.close();
          void rm(folder, { recursive: true, force: true });
          send({
            type: "welcome",
            v: STEP_CHANNEL_VERSION,
            secrets: [...(options.sharedSecrets ?? [])],
            acks: true,
          });
          socket.on("close", () => {
            for (const c of inFlight.values()) c.abort();
            failReady(
              new AppError(
                "EXECUTION.MCP_PROXY.NOT_READY",
                "the proxy closed the channel before it was ready",
              ),
            );
            resolveClosed({ reason: "proxy closed the channel" });
          });
          return;
        }
        if (parsed.success) onMessage(parsed.data);
      },
      () => socket.destroy(),
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });

  const close = async () => {
    clearTimeout(readyTimer);
    failReady(new AppError("EXECUTION.MCP_PROXY.NOT_READY", "the channel was closed"));
    server.close();
    if (peer) {
      peer.end();
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
      peer.destroy();
    } else {
      resolveClosed({ reason: "closed before the proxy connected" });
    }
    await rm(folder, { recursive: true, force: true });
  };

  return {
    path: socketPath,
    token,
    ready,
    closed,
    get connected() {
      return peer !== undefined;
    },
    close,
  };
};
