/**
 * The proxy's end of the step channel: connects with the one-time token, learns the values
 * it must scrub, sends connector calls and gets their results, and streams records and
 * spans. It is also the proxy's RecordSink when a channel is configured.
 */
import { createConnection, type Socket } from "node:net";
import { AppError, type ErrorCode } from "../errors";
import { ToolFailure, type JsonObject, type ToolResult } from "../tools";
import type { RecordSink, SpanRecord, ToolCallRecord } from "./call-record";
import { readLines, writeLine } from "./json-lines";
import { hostMessage, STEP_CHANNEL_VERSION, type ProxyMessage } from "./step-channel-protocol";

type StepChannelOptions = { path: string; token: string; timeoutMs?: number };

/** The worker's answer to a call: its result, or (in a replay) "run this built-in yourself". */
export type ChannelAnswer =
  { kind: "result"; result: ToolResult } | { kind: "live" } | { kind: "proceed" };

type Pending = { resolve: (a: ChannelAnswer) => void; reject: (e: Error) => void };

export class StepChannelClient implements RecordSink {
  private readonly pending = new Map<number, Pending>();
  /** Records sent with an ack number, until the worker says they are stored. */
  private readonly unstored = new Map<number, () => void>();
  private nextId = 1;
  private nextAck = 1;
  private closed = false;
  private readonly closeListeners: ((reason: string) => void)[] = [];

  private constructor(
    private readonly socket: Socket,
    readonly secrets: readonly string[],
    /** Whether the worker confirms each record once stored. */
    private readonly acks: boolean,
  ) {}

  /** Connects and completes hello/welcome; throws SYSTEM.MCP_PROXY.CHANNEL on any failure. */
  static connect(options: StepChannelOptions): Promise<StepChannelClient> {
    const timeoutMs = options.timeoutMs ?? 10_000;
    return new Promise((resolve, reject) => {
      const socket = createConnection({ path: options.path });
      let client: StepChannelClient | undefined;
      const fail = (message: string) => {
        clearTimeout(timer);
        socket.destroy();
        if (client) client.shutdown(message);
        else reject(new AppError("SYSTEM.MCP_PROXY.CHANNEL", `step channel: ${message}`));
      };
      const timer = setTimeout(() => fail(`no welcome within ${timeoutMs} ms`), timeoutMs);
      socket.once("connect", () => {
        writeLine(socket, {
          type: "hello",
          v: STEP_CHANNEL_VERSION,
          token: options.token,
          pid: process.pid,
        } satisfies ProxyMessage);
      });
      socket.on("error", (error) => fail(error.message));
      socket.on("close", () => fail("closed by the worker"));
      readLines(
        socket,
        (raw) => {
          const parsed = hostMessage.safeParse(raw);
          if (!parsed.success)
            return fail("the worker sent a message this proxy does not understand");
          const message = parsed.data;
          switch (message.type) {
            case "welcome":
              if (client) return;
              if (message.v !== STEP_CHANNEL_VERSION)
                return fail(`protocol version ${message.v} is not ${STEP_CHANNEL_VERSION}`);
              clearTimeout(timer);
              client = new StepChannelClient(socket, message.secrets, message.acks === true);
              resolve(client);
              return;
            case "reject":
              return fail(`refused: ${message.message}`);
            case "result":
              client?.settle(message.id, (p) =>
                p.resolve({ kind: "result", result: message.result as ToolResult }),
              );
              return;
            case "live":
              client?.settle(message.id, (p) => p.resolve({ kind: "live" }));
              return;
            case "proceed":
              client?.settle(message.id, (p) => p.resolve({ kind: "proceed" }));
              return;
            case "error":
              client?.settle(message.id, (p) =>
                p.reject(new ToolFailure(message.code, message.message)),
              );
              return;
            case "stored":
              client?.stored(message.ack);
              return;
          }
        },
        (error) => fail(error.message),
      );
    });
  }

  private settle(id: number, fn: (p: Pending) => void): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    fn(p);
  }

  private stored(ack: number): void {
    const done = this.unstored.get(ack);
    this.unstored.delete(ack);
    done?.();
  }

  private shutdown(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    for (const done of this.unstored.values()) done();
    this.unstored.clear();
    for (const p of this.pending.values())
      p.reject(new ToolFailure("SYSTEM.MCP_PROXY.CHANNEL", `the step channel closed: ${reason}`));
    this.pending.clear();
    for (const listener of this.closeListeners) listener(reason);
  }

  onClose(listener: (reason: string) => void): void {
    this.closeListeners.push(listener);
  }

  private send(message: ProxyMessage): void {
    writeLine(this.socket, message);
  }

  ready(tools: string[]): void {
    this.send({ type: "ready", tools });
  }

  fatal(code: ErrorCode, message: string): void {
    this.send({ type: "fatal", code, message });
  }

  /** A connector call: the worker runs it (or, in a replay, answers it from the recording). */
  async call(
    tool: string,
    args: JsonObject,
    signal: AbortSignal,
    trace?: { traceId: string; spanId: string },
  ): Promise<ToolResult> {
    const answer = await this.ask(tool, args, signal, trace);
    if (answer.kind === "result") return answer.result;
    // Only a built-in may run live in a replay; the worker never says so of a connector tool.
    throw new ToolFailure(
      "USER.REPLAY.NO_RECORDING",
      `${tool} has no recording left, and a connector tool never runs live in a replay`,
    );
  }

  /**
   * Asks the worker before a built-in runs: resolves when it may run (`proceed`), throws the
   * worker's refusal (a denial, a budget reached) as a ToolFailure. It may take as long as a
   * person takes to answer.
   */
  async gate(tool: string, args: JsonObject, signal: AbortSignal): Promise<void> {
    await this.ask(tool, args, signal, undefined, "gate");
  }

  /** Asks the worker to answer a call: a result, or (in a replay) `live`, to run it here. */
  ask(
    tool: string,
    args: JsonObject,
    signal: AbortSignal,
    trace?: { traceId: string; spanId: string },
    type: "call" | "gate" = "call",
  ): Promise<ChannelAnswer> {
    if (this.closed)
      return Promise.reject(
        new ToolFailure("SYSTEM.MCP_PROXY.CHANNEL", "the step channel is closed"),
      );
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.send({ type: "cancel", id });
        this.settle(id, (p) => p.reject(new ToolFailure("cancelled", "cancelled")));
      };
      this.pending.set(id, {
        resolve: (r) => {
          signal.removeEventListener("abort", onAbort);
          resolve(r);
        },
        reject: (e) => {
          signal.removeEventListener("abort", onAbort);
          reject(e);
        },
      });
      signal.addEventListener("abort", onAbort, { once: true });
      if (type === "gate") this.send({ type: "gate", id, tool, arguments: args });
      else
        this.send({
          type: "call",
          id,
          tool,
          arguments: args,
          ...(trace ? { trace_id: trace.traceId, span_id: trace.spanId } : {}),
        });
    });
  }

  /** Sends the record; resolves once the worker has stored it (at once when it does not confirm). */
  record(record: ToolCallRecord): Promise<void> {
    if (!this.acks || this.closed) {
      this.send({ type: "record", record });
      return Promise.resolve();
    }
    const ack = this.nextAck++;
    return new Promise((resolve) => {
      this.unstored.set(ack, resolve);
      this.send({ type: "record", record, ack });
    });
  }

  span(span: SpanRecord): void {
    this.send({ type: "span", span });
  }

  /** Flushes what was written and closes the socket. */
  close(): Promise<void> {
    if (this.socket.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.end(() => resolve());
      setTimeout(resolve, 1000).unref();
    });
  }
}
