/**
 * The task flow of one connector call, over the pool's guarded calls: ask for a task (or
 * follow the one an earlier attempt of the call started), poll it at the interval its
 * server asks for until it ends, then fetch the tool's result. The server's word on the task
 * goes to the journal at each step, so that whoever calls next (the agent asking again after
 * its CLI gave up, a worker after a restart) knows where it stands.
 */
import { ProtocolError } from "@modelcontextprotocol/client";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { AppError } from "../errors";
import type { ConnectorHost } from "./connector-host";
import {
  pollDelayMs,
  TERMINAL_TASK_STATUSES,
  type ToolTask,
  type ToolTaskJournal,
  type ToolTaskWire,
} from "./tool-task";

/** What the flow needs of the pool. */
export type TaskHostPart = Pick<ConnectorHost, "listTools" | "callTool"> & {
  guarded<T>(
    connectorId: string,
    signal: AbortSignal | undefined,
    run: (wire: ToolTaskWire) => Promise<T>,
  ): Promise<T>;
  /**
   * A task waiting for input (`input_required`): `tasks/result`, on which the server sends
   * its forms (naming the task) to the call's person and, once answered, the tool's result.
   * Absent when the call has nobody to ask.
   */
  answerTask?: (
    connectorId: string,
    taskId: string,
    signal: AbortSignal | undefined,
  ) => Promise<CallToolResult>;
  /** Marks a task of the connector as followed until the returned function is called. */
  following?: (connectorId: string) => () => void;
  timeoutMs: number;
  ttlMs: number;
  pollBounds: { minMs: number; maxMs: number };
  now: () => number;
};

type RequestOptions = { timeout: number; signal?: AbortSignal };

type TaskCall = {
  connectorId: string;
  tool: string;
  args: Record<string, unknown>;
  journal: ToolTaskJournal;
};

const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const done = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", done);
      resolve();
    }, ms);
    signal?.addEventListener("abort", done, { once: true });
  });

const ended = (task: ToolTask) => TERMINAL_TASK_STATUSES.includes(task.status);

export const followToolTask = async (
  host: TaskHostPart,
  call: TaskCall,
  signal?: AbortSignal,
): Promise<CallToolResult> => {
  const { connectorId, tool, args, journal } = call;
  const options: RequestOptions = { timeout: host.timeoutMs, ...(signal ? { signal } : {}) };
  // A 2025-11-25 server is asked which tools it runs as tasks (a cached list); under the
  // extension the server decides per call.
  const form = await host.guarded(connectorId, signal, (wire) => Promise.resolve(wire.form));
  const support =
    form === "2025-11-25"
      ? (await host.listTools(connectorId, signal)).find((t) => t.name === tool)?.taskSupport
      : form;
  if (support === undefined) return host.callTool(connectorId, tool, args, signal);
  const first = await host.guarded(connectorId, signal, async (wire) => {
    if (journal.follow) {
      // The server may have forgotten it (restarted, or its ttl passed): then a new one.
      const known = await wire.ask("tasks/get", journal.follow, options).catch((error: unknown) => {
        if (error instanceof ProtocolError) return undefined;
        throw error;
      });
      if (known) {
        if (!ended(known)) await journal.observed(known);
        return { task: known };
      }
    }
    const answer = await wire.start({ tool, args, ttlMs: host.ttlMs }, options);
    if ("task" in answer) await journal.created(answer.task);
    return answer;
  });
  if ("plain" in first) return host.callTool(connectorId, tool, args, signal);
  if (!("task" in first)) return first.result;
  // While it is followed, a form that names no call cannot be told apart from this task's.
  const unfollow = host.following?.(connectorId);
  try {
    return await pollToEnd(host, call, first.task, options, signal, form);
  } finally {
    unfollow?.();
  }
};

/** Polls the task until it ends (answering it when it asks for input), then its result. */
const pollToEnd = async (
  host: TaskHostPart,
  { connectorId, tool, journal }: TaskCall,
  started: ToolTask,
  options: RequestOptions,
  signal: AbortSignal | undefined,
  form: ToolTaskWire["form"],
): Promise<CallToolResult> => {
  let task = started;
  while (!ended(task)) {
    await wait(pollDelayMs(task, host.pollBounds), signal);
    if (task.expiresAt && task.expiresAt.getTime() < host.now())
      throw new AppError(
        "EXECUTION.CONNECTOR_TASK_EXPIRED",
        `the task of tool "${tool}" on connector "${connectorId}" outlived the time its server keeps it`,
      );
    const taskId = task.taskId;
    task = await host.guarded(connectorId, signal, (wire) =>
      wire.ask("tasks/get", taskId, options),
    );
    if (!ended(task)) await journal.observed(task);
    if (task.status === "input_required")
      return answered(host, { connectorId, tool, journal }, task, options, signal, form);
  }
  const result = await endResult(host, task, tool, connectorId, options);
  // Taken only once its result is in hand: a call cut before that follows it again.
  await journal.taken(task);
  return result;
};

/** A task that asks for input: its result once the call's person answered, or cancelled when there is nobody to ask. */
const answered = async (
  host: TaskHostPart,
  { connectorId, tool, journal }: Omit<TaskCall, "args">,
  task: ToolTask,
  options: RequestOptions,
  signal: AbortSignal | undefined,
  /** The task form the server speaks (as the call found it). */
  form: ToolTaskWire["form"],
): Promise<CallToolResult> => {
  const { taskId } = task;
  // Only the 2025-11-25 form passes a task's questions on (`tasks/result`).
  if (host.answerTask && form === "2025-11-25") {
    const result = await host.answerTask(connectorId, taskId, signal);
    // Kept as ended with the server's last word on it, once its result is in hand.
    const last = await host
      .guarded(connectorId, signal, (wire) => wire.ask("tasks/get", taskId, options))
      .catch((): ToolTask => ({ ...task, status: result.isError ? "failed" : "completed" }));
    await journal.taken(last);
    return result;
  }
  // Nobody can answer it (a step that asks no one): stopped now rather than polled until its
  // ttl runs out.
  await host
    .guarded(connectorId, undefined, (wire) =>
      wire.ask("tasks/cancel", taskId, { timeout: host.timeoutMs }),
    )
    .catch(() => undefined);
  throw new AppError(
    "EXECUTION.CONNECTOR_TASK_INPUT_REQUIRED",
    `the task of tool "${tool}" on connector "${connectorId}" asks for input, and ${form === "2025-11-25" ? "this call has nobody to ask" : "its server's questions inside a task are not passed on yet"}; the task was cancelled`,
  );
};

/**
 * Follows a task an earlier worker started, for a step this worker took over, until it ends
 * (or asks for input, or outlives its server's ttl), telling `observed` the server's word at
 * each poll. The result stays at the server: the call made again fetches it at once.
 */
export const watchToolTask = async (
  host: TaskHostPart,
  task: { connectorId: string; taskId: string },
  observed: (task: ToolTask) => Promise<void>,
  signal: AbortSignal,
): Promise<void> => {
  const options = { timeout: host.timeoutMs, signal };
  const ask = () =>
    host.guarded(task.connectorId, signal, (wire) => wire.ask("tasks/get", task.taskId, options));
  let now = await ask();
  await observed(now);
  while (!ended(now) && now.status !== "input_required") {
    if (now.expiresAt && now.expiresAt.getTime() < host.now()) return;
    await wait(pollDelayMs(now, host.pollBounds), signal);
    now = await ask();
    await observed(now);
  }
};

const endResult = (
  host: TaskHostPart,
  task: ToolTask,
  tool: string,
  connectorId: string,
  options: RequestOptions,
): Promise<CallToolResult> => {
  if (task.status === "cancelled")
    return Promise.resolve({
      isError: true,
      content: [
        {
          type: "text",
          text: `the server cancelled the task of tool "${tool}"${task.statusMessage ? `: ${task.statusMessage}` : ""}`,
        },
      ],
    });
  if (task.failure !== undefined)
    return Promise.resolve({
      isError: true,
      content: [{ type: "text", text: `the task of tool "${tool}" failed: ${task.failure}` }],
    });
  return host.guarded(connectorId, options.signal, (wire) => wire.result(task, options));
};
