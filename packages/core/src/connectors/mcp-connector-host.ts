/**
 * A ConnectorHost over real MCP clients (stdio and streamable HTTP). It owns every
 * transport and credential (see connector-transport.ts: a stdio connector's in its
 * environment, an HTTP one's as a bearer per request). Connectors are pooled: one live
 * client per connector id (the worker's ids name the team, the connector and whose
 * credential), closed after `idleMs` unused (never while a call of it runs) and, at
 * `maxLive`, the least recently used one makes room. A connector that fails to connect, times out or
 * drops is cooled down, for longer at each failure in a row (backoff), and fails fast
 * meanwhile, without affecting the others. `tools/list` is cached per live client until
 * the server says its list changed.
 *
 * Both protocol eras: the client probes with `server/discover` and speaks 2026-07-28
 * (stateless, no `initialize`, list changes on a `subscriptions/listen` stream) to a server
 * that offers it, else the 2025 `initialize` handshake. The era found is kept per connector,
 * so a reconnect skips the probe (a legacy verdict for an hour at most: an upgraded server
 * still answers `initialize`); a stdio server started by `openStdio` that exits on, or never
 * answers, the probe is taken as legacy and started again.
 *
 * Elicitation (form mode) is advertised to every server: a server's `elicitation/create`
 * during a tool call is handed to that call's `elicit` (the worker makes it a wait for a
 * person), found by what the wire says of it (form-routing.ts); a form whose call is not
 * known for sure is cancelled and reported (`onFormRefused`). A form ends with its call:
 * a call that ends or is given up (its signal) closes its forms, and the server hears cancel.
 */
import {
  SdkErrorCode,
  type Client,
  type ElicitRequest,
  type ElicitResult,
  type McpSubscription,
  type PriorDiscovery,
  type RequestId,
  type Transport,
} from "@modelcontextprotocol/client";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { AppError } from "../errors";
import { DESCRIPTION_CAP } from "../tools";
import {
  connectClient,
  eraMismatch,
  insufficientScopeOf,
  probeRefused,
  sdkCode,
} from "./connect-client";
import type {
  ConnectorHost,
  ConnectorSpec,
  CredentialSource,
  UpstreamTool,
} from "./connector-host";
import { openTransport, type OpenStdio } from "./connector-transport";
import { followToolTask, watchToolTask, type TaskHostPart } from "./follow-tool-task";
import { formCall, FormRouter, type ElicitHandler } from "./form-routing";
import { withRawRequests, type RawRequest } from "./raw-requests";
import { toolTaskWire, type ToolTask, type ToolTaskJournal } from "./tool-task";
import type { FetchLike } from "./oauth/oauth-types";

type McpConnectorHostOptions = {
  connectors?: readonly ConnectorSpec[];
  credentials?: CredentialSource;
  /** Starts a stdio connector (e.g. in a sandbox of its own) with its environment; the SDK's plain spawn when unset. */
  openStdio?: OpenStdio;
  /** The egress fetch http connectors are reached with; without it http connectors are refused. */
  httpFetch?: FetchLike;
  /**
   * How long one connection attempt to a connector may take.
   * @default 30_000 (30 s)
   */
  connectTimeoutMs?: number;
  /**
   * How long a stdio connector may take to answer the era probe before it is taken as legacy; never more than connectTimeoutMs.
   * @default PROBE_TIMEOUT_MS (10 s)
   */
  probeTimeoutMs?: number;
  /**
   * How long one tool call to a connector may take.
   * @default 60_000 (60 s)
   */
  callTimeoutMs?: number;
  /**
   * The first cooldown after a failure; doubled at each further failure in a row, up to maxCooldownMs.
   * @default 1_000 (1 s)
   */
  cooldownMs?: number;
  /**
   * The longest cooldown after failures in a row; never less than cooldownMs.
   * @default 60_000 (60 s)
   */
  maxCooldownMs?: number;
  /**
   * A live connector unused this long is closed.
   * @default 300_000 (5 min)
   */
  idleMs?: number;
  /**
   * Live connectors at most; the least recently used one is closed to make room.
   * @default 32
   */
  maxLive?: number;
  /**
   * How long a server is asked to keep a task-run call (its ttl); the call waits for it no longer.
   * @default 86_400_000 (24 h)
   */
  taskTtlMs?: number;
  /**
   * The shortest and longest wait between polls of a task, whatever interval its server asks for.
   * @default { minMs: 100, maxMs: 30_000 }
   */
  taskPollBounds?: { minMs: number; maxMs: number };
  /** A server's form that went to nobody (cancelled): which connector, and why. */
  onFormRefused?: (event: { connectorId: string; reason: string }) => void;
  /**
   * The clock idle times and cooldowns are measured with.
   * @default Date.now
   */
  now?: () => number;
};

export type { ElicitHandler } from "./form-routing";

type ConnectorCallOptions = {
  elicit?: ElicitHandler;
  /** How much longer than the call timeout the call may take while a form waits for its answer. */
  elicitMs?: number;
};

type Live = {
  client: Client;
  transport: Transport;
  version: string | undefined;
  tools?: UpstreamTool[];
  /** On 2026-07-28: the stream list changes come on. */
  changes?: McpSubscription;
  /** Whose call each form of this connection is. */
  forms: FormRouter;
  /** Requests of the connection the client cannot make itself (a task's, under the tasks extension). */
  raw: RawRequest;
};

/** The era a connector answered in, and when: a reconnect passes it as the client's `prior`. */
type EraVerdict = { prior: PriorDiscovery; at: number };

const LEGACY_VERDICT_MS = 3_600_000;
const PROBE_TIMEOUT_MS = 10_000;

export class McpConnectorHost implements ConnectorHost {
  private readonly specs: Map<string, ConnectorSpec>;
  private readonly live = new Map<string, Promise<Live>>();
  private readonly lastUsed = new Map<string, number>();
  /** Calls running per connector: a connector is not idle while one runs, however long. */
  private readonly running = new Map<string, number>();
  /** Tasks being followed per connector (between their polls too). */
  private readonly followed = new Map<string, number>();
  private readonly coolingUntil = new Map<
    string,
    { until: number; reason: string; failures: number }
  >();
  private readonly eras = new Map<string, EraVerdict>();
  /** Connections being made: close() gives them up rather than waiting out their timeout. */
  private readonly opening = new Set<AbortController>();
  private closed = false;
  private readonly now: () => number;
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly options: McpConnectorHostOptions = {}) {
    this.specs = new Map((options.connectors ?? []).map((c) => [c.id, c]));
    this.now = options.now ?? Date.now;
    this.sweeper = setInterval(() => this.closeIdle(), Math.min(this.idleMs, 30_000));
    this.sweeper.unref();
  }

  private get idleMs() {
    return this.options.idleMs ?? 300_000;
  }

  /** Adds or replaces a connector; a live client of an older version is closed (and a cooldown of it forgotten). */
  define(spec: ConnectorSpec): void {
    const previous = this.specs.get(spec.id);
    this.specs.set(spec.id, spec);
    if (previous && previous.version !== spec.version) {
      this.coolingUntil.delete(spec.id);
      this.eras.delete(spec.id);
      this.drop(spec.id);
    }
  }

  /** How many connectors have a live client now. */
  get liveCount(): number {
    return this.live.size;
  }

  /** The protocol era a connector last answered in, if it was reached. */
  eraOf(id: string): "modern" | "legacy" | undefined {
    return this.eras.get(id)?.prior.kind;
  }

  private drop(id: string): void {
    const live = this.live.get(id);
    this.live.delete(id);
    this.lastUsed.delete(id);
    void live?.then((l) => l.client.close()).catch(() => undefined);
  }

  /** Closes live connectors unused for idleMs. */
  closeIdle(): void {
    const horizon = this.now() - this.idleMs;
    for (const [id, at] of this.lastUsed) if (at <= horizon && !this.running.get(id)) this.drop(id);
  }

  private coolDown(id: string, reason: string): void {
    const failures = (this.coolingUntil.get(id)?.failures ?? 0) + 1;
    const base = this.options.cooldownMs ?? 1_000;
    const ms = Math.min(
      base * 2 ** (failures - 1),
      Math.max(base, this.options.maxCooldownMs ?? 60_000),
    );
    this.coolingUntil.set(id, { until: this.now() + ms, reason, failures });
    this.eras.delete(id);
    this.drop(id);
  }

  /**
   * Room for one more live client: the least recently used one with no call running goes.
   * When every live client has a call running the cap bends: closing one would cut a call
   * off (and its retry would run the tool twice), and the pool shrinks back once a call ends.
   */
  private makeRoom(room = 1): void {
    const max = (this.options.maxLive ?? 32) - room + 1;
    const idle = [...this.lastUsed]
      .filter(([id]) => !this.running.get(id))
      .sort((a, b) => a[1] - b[1]);
    for (const [id] of idle) {
      if (this.live.size < max) break;
      this.drop(id);
    }
  }

  private connect(id: string): Promise<Live> {
    const cooling = this.coolingUntil.get(id);
    if (cooling && cooling.until > this.now()) {
      const seconds = Math.ceil((cooling.until - this.now()) / 1000);
      return Promise.reject(
        new AppError(
          "EXECUTION.CONNECTOR_UNAVAILABLE",
          `connector "${id}" failed (${cooling.reason}); retrying in ${seconds} s`,
          { retryable: true },
        ),
      );
    }
    const existing = this.live.get(id);
    if (existing) {
      this.lastUsed.set(id, this.now());
      return existing;
    }
    const spec = this.specs.get(id);
    if (!spec)
      return Promise.reject(
        new AppError("USER.MCP_PROXY.UNKNOWN_CONNECTOR", `unknown connector "${id}"`),
      );
    if (this.closed)
      return Promise.reject(
        new AppError("EXECUTION.CONNECTOR_UNAVAILABLE", `connector "${id}": the pool is closed`),
      );
    this.makeRoom();
    const ms = this.options.connectTimeoutMs ?? 30_000;
    const deadline = new AbortController();
    this.opening.add(deadline);
    const timer = setTimeout(
      () => deadline.abort(new Error(`connecting to "${id}" timed out after ${ms} ms`)),
      ms,
    );
    const attempt = this.open(spec, deadline.signal)
      .catch((error: unknown) => {
        // A stdio server probed on its own pipe that closed on the probe or never answered
        // it is a legacy server: start it again and go straight to `initialize`.
        const legacyServer =
          spec.kind === "stdio" &&
          this.options.openStdio &&
          !this.eras.has(id) &&
          probeRefused(error);
        if (!legacyServer || deadline.signal.aborted) throw error;
        this.eras.set(id, { prior: { kind: "legacy" }, at: this.now() });
        return this.open(spec, deadline.signal);
      })
      .finally(() => {
        clearTimeout(timer);
        this.opening.delete(deadline);
      })
      .then((live) => {
        live.client.onclose = () => {
          if (this.live.get(id) === attempt) this.coolDown(id, "the connection closed");
        };
        // On 2026-07-28 list changes come on a stream of their own: when it ends the
        // connection is dropped (not cooled down), so the next use reconnects and listens again.
        void live.changes?.closed.then((how) => {
          if (how !== "local" && this.live.get(id) === attempt) this.drop(id);
        });
        return live;
      });
    this.live.set(id, attempt);
    this.lastUsed.set(id, this.now());
    attempt.then(
      () => this.coolingUntil.delete(id),
      (error: Error) => {
        if (this.live.get(id) !== attempt) return;
        // The server is up and wants a wider scope: nothing to wait for, the caller decides.
        if (insufficientScopeOf(error)) this.drop(id);
        else this.coolDown(id, error.message);
      },
    );
    return attempt;
  }

  /** One connection attempt in the era known for the connector, or with a probe that finds it. */
  private async open(spec: ConnectorSpec, deadline: AbortSignal): Promise<Live> {
    const known = this.eras.get(spec.id);
    const prior =
      known && (known.prior.kind === "modern" || this.now() - known.at < LEGACY_VERDICT_MS)
        ? known.prior
        : undefined;
    const timeoutMs = this.options.connectTimeoutMs ?? 30_000;
    const forms = new FormRouter();
    const live: Partial<Live> = { version: spec.version, forms };
    const { httpFetch } = this.options;
    const { transport, request: raw } = withRawRequests(
      forms.watch(
        await openTransport(spec, {
          ...this.options,
          ...(httpFetch ? { httpFetch: forms.tap(httpFetch) } : {}),
        }),
      ),
    );
    const { client, era, changes } = await connectClient({
      transport,
      ...(prior ? { prior } : {}),
      timeoutMs,
      probeTimeoutMs:
        spec.kind === "stdio"
          ? Math.min(this.options.probeTimeoutMs ?? PROBE_TIMEOUT_MS, timeoutMs)
          : timeoutMs,
      deadline,
      onToolsChanged: () => delete live.tools,
      onElicit: (request, context) => this.elicit(spec.id, forms, request, context),
    });
    if (!prior) this.eras.set(spec.id, { prior: era, at: this.now() });
    return Object.assign(live, {
      client,
      transport,
      raw,
      ...(changes ? { changes } : {}),
    }) as Live;
  }

  /** Counts a use of connector `id` (not idle, not closed to make room) until the returned function is called. */
  private inUse(id: string, counts = this.running): () => void {
    counts.set(id, (counts.get(id) ?? 0) + 1);
    return () => {
      const left = (counts.get(id) ?? 1) - 1;
      if (left > 0) counts.set(id, left);
      else counts.delete(id);
    };
  }

  private async guarded<T>(
    id: string,
    signal: AbortSignal | undefined,
    run: (client: Client, live: Live) => Promise<T>,
  ): Promise<T> {
    // Counted from before the connection is made: one still opening is not idle either.
    const done = this.inUse(id);
    const release = () => {
      done();
      // The end of a call is a use: idle time counts from it.
      if (this.live.has(id)) this.lastUsed.set(id, this.now());
      this.makeRoom(0);
    };
    let live: Live;
    try {
      live = await this.connect(id);
    } catch (error) {
      release();
      if (error instanceof AppError || insufficientScopeOf(error)) throw error;
      throw new AppError(
        "EXECUTION.CONNECTOR_UNAVAILABLE",
        `connector "${id}" is unavailable: ${(error as Error).message}`,
        { retryable: true, cause: error },
      );
    }
    try {
      return await run(live.client, live);
    } catch (error) {
      // The client reports a call its caller aborted as a timeout: that says nothing of the connector.
      if (signal?.aborted) throw error;
      const timedOut = sdkCode(error) === SdkErrorCode.RequestTimeout;
      const dropped =
        sdkCode(error) === SdkErrorCode.ConnectionClosed ||
        sdkCode(error) === SdkErrorCode.NotConnected;
      if (timedOut || dropped)
        this.coolDown(id, timedOut ? "a call timed out" : "the connection closed");
      else if (eraMismatch(error)) {
        this.eras.delete(id);
        this.drop(id);
      } else throw error;
      throw new AppError(
        "EXECUTION.CONNECTOR_UNAVAILABLE",
        `connector "${id}": ${(error as Error).message}`,
        { retryable: true, cause: error },
      );
    } finally {
      release();
    }
  }

  /** A server's form, to the call it belongs to when that is known for sure; else cancelled. */
  private async elicit(
    id: string,
    forms: FormRouter,
    request: ElicitRequest["params"],
    context: { requestId: RequestId; signal: AbortSignal },
  ): Promise<ElicitResult> {
    const route = forms.route(context.requestId, request._meta, this.followed.get(id) ?? 0);
    const refuse = (reason: string): ElicitResult => {
      this.options.onFormRefused?.({ connectorId: id, reason });
      return { action: "cancel" };
    };
    if ("refused" in route) return refuse(route.refused);
    if (!("requestedSchema" in request)) return refuse("it asks in URL mode, which is not offered");
    const { call } = route;
    return call.elicit!(
      { message: request.message, requestedSchema: request.requestedSchema },
      AbortSignal.any([context.signal, call.ended.signal]),
    );
  }

  async listTools(connectorId: string, signal?: AbortSignal): Promise<UpstreamTool[]> {
    return this.guarded(connectorId, signal, async (client, live) => {
      if (live.tools) return live.tools;
      // Without a cursor the client walks every page itself.
      const { tools: all } = await client.listTools(undefined, {
        timeout: this.options.callTimeoutMs ?? 60_000,
        cacheMode: "refresh",
        ...(signal ? { signal } : {}),
      });
      const tools = all.map((t): UpstreamTool => ({
        name: t.name,
        description: (t.description ?? "").slice(0, DESCRIPTION_CAP),
        inputSchema: t.inputSchema,
        ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
        ...(t.execution?.taskSupport === "optional" || t.execution?.taskSupport === "required"
          ? { taskSupport: t.execution.taskSupport }
          : {}),
      }));
      live.tools = tools;
      return tools;
    });
  }

  async callTool(
    connectorId: string,
    tool: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
    /** The trace is the caller's (the worker continues it around this call). */
    _trace?: { traceId: string; spanId: string },
    options: ConnectorCallOptions = {},
  ): Promise<CallToolResult> {
    return this.asking(
      connectorId,
      signal,
      options,
      undefined,
      (client, timeout) =>
        client.callTool(
          { name: tool, arguments: args },
          { timeout, ...(signal ? { signal } : {}) },
        ) as Promise<CallToolResult>,
    );
  }

  /**
   * One request of a call during which the server may ask forms (`tools/call`, or a task's
   * `tasks/result`): its forms go to the call's `elicit`, and close when it ends. `taskId`:
   * the task whose forms (they name it) are this call's too.
   */
  private asking<T>(
    connectorId: string,
    signal: AbortSignal | undefined,
    { elicit, elicitMs }: ConnectorCallOptions,
    taskId: string | undefined,
    send: (client: Client, timeout: number, live: Live) => Promise<T>,
    /** How long the request may take, when not a plain call's time (and a form's). */
    timeoutMs?: number,
  ): Promise<T> {
    const timeout =
      timeoutMs ?? (this.options.callTimeoutMs ?? 60_000) + (elicit ? (elicitMs ?? 0) : 0);
    return this.guarded(connectorId, signal, async (client, live) => {
      const call = formCall(elicit, signal);
      const stop = taskId === undefined ? undefined : live.forms.following(taskId, call);
      try {
        return await live.forms.within(call, () => send(client, timeout, live));
      } finally {
        stop?.();
        // A form still open for a call that ended (timed out, say) is closed with it.
        call.ended.abort();
      }
    });
  }

  /**
   * A call of a tool whose server runs it as an MCP task: started (or, with `journal.follow`,
   * the earlier attempt's task followed), polled at the server's interval until it ends, its
   * result returned. Each poll is a call of its own, so a connection dropped meanwhile is
   * made again. A tool or server without tasks gets a plain call. An aborted call leaves the
   * task running at its server (the journal keeps it for the next attempt).
   */
  callToolAsTask(
    connectorId: string,
    tool: string,
    args: Record<string, unknown>,
    journal: ToolTaskJournal,
    signal?: AbortSignal,
    /** For a plain call (a tool or server without tasks): where its forms go. */
    options: ConnectorCallOptions = {},
  ): Promise<CallToolResult> {
    const part = this.taskPart(options);
    // In use for the whole follow, between polls too: the pool must not close it as idle
    // (or to make room), which would end a stdio server's task.
    return followToolTask(part, { connectorId, tool, args, journal }, signal).finally(
      this.inUse(connectorId),
    );
  }

  /** The pool as the task flows see it: calls (a plain one with `options`) and each connection's task methods. */
  private taskPart(options: ConnectorCallOptions = {}): TaskHostPart {
    return {
      listTools: (id, s) => this.listTools(id, s),
      callTool: (id, t, a, s) => this.callTool(id, t, a, s, undefined, options),
      guarded: (id, s, run) =>
        this.guarded(id, s, (client, live) => run(toolTaskWire(client, live.raw))),
      following: (id) => this.inUse(id, this.followed),
      // A task that asks for input is answered only when someone can be asked.
      ...(options.elicit
        ? {
            // `tasks/result` answers only once the task has ended, which may be long after
            // the person answered: it may take the task's whole lifetime (a plain call's
            // deadline cut it, and the timeout cooled the connector down and closed a stdio
            // server's other tasks). The call's own signal still ends it early.
            answerTask: (id: string, taskId: string, s: AbortSignal | undefined) =>
              this.asking(
                id,
                s,
                options,
                taskId,
                (client, timeout, live) =>
                  toolTaskWire(client, live.raw).result(
                    { taskId, status: "input_required" },
                    { timeout, ...(s ? { signal: s } : {}) },
                  ),
                this.options.taskTtlMs ?? 86_400_000,
              ),
          }
        : {}),
      timeoutMs: this.options.callTimeoutMs ?? 60_000,
      ttlMs: this.options.taskTtlMs ?? 86_400_000,
      pollBounds: this.options.taskPollBounds ?? { minMs: 100, maxMs: 30_000 },
      now: this.now,
    };
  }

  /**
   * Follows a task an earlier worker started to its end (see watchToolTask), the connector
   * in use meanwhile; `observed` hears the server's word at each poll.
   */
  watchTask(
    connectorId: string,
    taskId: string,
    observed: (task: ToolTask) => Promise<void>,
    signal: AbortSignal,
  ): Promise<void> {
    return watchToolTask(this.taskPart(), { connectorId, taskId }, observed, signal).finally(
      this.inUse(connectorId),
    );
  }

  /** Asks the server to stop a task (a cancelled run's); what it says of the task after. */
  cancelTask(connectorId: string, taskId: string, signal?: AbortSignal) {
    return this.guarded(connectorId, signal, (client, live) =>
      toolTaskWire(client, live.raw).ask("tasks/cancel", taskId, {
        timeout: this.options.callTimeoutMs ?? 60_000,
        ...(signal ? { signal } : {}),
      }),
    );
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    // A server still starting is given up now (a legacy server's second start included).
    this.closed = true;
    for (const deadline of this.opening) deadline.abort(new Error("the connector pool closed"));
    const all = [...this.live.values()];
    this.live.clear();
    this.lastUsed.clear();
    await Promise.allSettled(all.map(async (p) => (await p).client.close()));
  }
}
