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
  timeoutMs: number;
  ttlMs: number;
  pollBounds: { minMs: number; maxMs: number };
  now: () => number;
};

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
  const options = { timeout: host.timeoutMs, ...(signal ? { signal } : {}) };
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
  let task: ToolTask = first.task;
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
    if (task.status === "input_required") {
      // The server waits for an answer it asks for on the task's result stream, which this
      // worker does not open yet: stopped now rather than polled until its ttl runs out.
      await host
        .guarded(connectorId, undefined, (wire) =>
          wire.ask("tasks/cancel", taskId, { timeout: host.timeoutMs }),
        )
        .catch(() => undefined);
      throw new AppError(
        "EXECUTION.CONNECTOR_TASK_INPUT_REQUIRED",
        `the task of tool "${tool}" on connector "${connectorId}" asks for input, which Switchyard does not pass on for a task yet; the task was cancelled`,
      );
    }
  }
  const result = await endResult(host, task, tool, connectorId, options);
  // Taken only once its result is in hand: a call cut before that follows it again.
  await journal.taken(task);
  return result;
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
  options: { timeout: number; signal?: AbortSignal },
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
