/**
 * A long tool call run as an MCP task (the 2025-11-25 tasks form): `tools/call` with a
 * `task` asks the server to run the tool on its own time and answer at once with a task id,
 * `tasks/get` says how it is going (and how often to ask), `tasks/result` hands over the
 * tool's result once it has ended, and `tasks/cancel` stops it. The v2 client SDK carries
 * these methods as plain requests checked by the schemas here. Whether a call becomes a task
 * is the server's word: it says it runs `tools/call` as tasks (capability) and the tool says
 * it may or must be run as one (`execution.taskSupport`).
 */
import type { Client } from "@modelcontextprotocol/client";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

type ToolTaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

export type ToolTask = {
  taskId: string;
  status: ToolTaskStatus;
  statusMessage?: string;
  /** How long the server asks to wait between polls. */
  pollIntervalMs?: number;
  /** When the server forgets the task (its creation plus its ttl). */
  expiresAt?: Date;
};

/** Where a task-run call keeps its task, so that a later attempt of the same call follows it. */
export type ToolTaskJournal = {
  /** The id of a task an earlier attempt of this call started and that has not ended. */
  follow?: string;
  created(task: ToolTask): Promise<void>;
  observed(task: ToolTask): Promise<void>;
};

const TaskSchema = z.looseObject({
  taskId: z.string().min(1),
  status: z.enum(["working", "input_required", "completed", "failed", "cancelled"]),
  statusMessage: z.string().optional(),
  createdAt: z.string().optional(),
  ttl: z.number().nullable().optional(),
  pollInterval: z.number().optional(),
});
const CreatedSchema = z.looseObject({ task: TaskSchema.optional() });
const ResultSchema = z.looseObject({
  content: z.array(z.looseObject({ type: z.string() })).default([]),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
  isError: z.boolean().optional(),
});

export const TERMINAL_TASK_STATUSES: readonly ToolTaskStatus[] = [
  "completed",
  "failed",
  "cancelled",
];

const toTask = (wire: z.infer<typeof TaskSchema>): ToolTask => {
  const created = wire.createdAt ? Date.parse(wire.createdAt) : Number.NaN;
  return {
    taskId: wire.taskId,
    status: wire.status,
    ...(wire.statusMessage ? { statusMessage: wire.statusMessage } : {}),
    ...(wire.pollInterval !== undefined ? { pollIntervalMs: wire.pollInterval } : {}),
    ...(typeof wire.ttl === "number" && Number.isFinite(created)
      ? { expiresAt: new Date(created + wire.ttl) }
      : {}),
  };
};

/** Whether the server runs `tools/call` as tasks when asked (the 2025 era's capability). */
export const offersToolTasks = (client: Client): boolean =>
  client.getProtocolEra() === "legacy" &&
  Boolean(client.getServerCapabilities()?.tasks?.requests?.tools?.call);

type RequestOptions = { timeout: number; signal?: AbortSignal };

/** Asks for the call as a task: the task, or the result when the server answered the call at once. */
export const startToolTask = async (
  client: Client,
  call: { tool: string; args: Record<string, unknown>; ttlMs: number },
  options: RequestOptions,
): Promise<{ task: ToolTask } | { result: CallToolResult }> => {
  const answer = await client.request(
    {
      method: "tools/call",
      params: { name: call.tool, arguments: call.args, task: { ttl: call.ttlMs } },
    },
    CreatedSchema,
    options,
  );
  if (answer.task) return { task: toTask(answer.task) };
  return { result: ResultSchema.parse(answer) as CallToolResult };
};

/** `tasks/get` (how the task is going) or `tasks/cancel` (stop it): the task as the server says it is then. */
export const askToolTask = async (
  client: Client,
  method: "tasks/get" | "tasks/cancel",
  taskId: string,
  options: RequestOptions,
): Promise<ToolTask> =>
  toTask(await client.request({ method, params: { taskId } }, TaskSchema, options));

/** The tool's result of a task that has ended (its own `isError` when the tool failed). */
export const toolTaskResult = async (
  client: Client,
  taskId: string,
  options: RequestOptions,
): Promise<CallToolResult> => {
  const { _meta: _related, ...result } = await client.request(
    { method: "tasks/result", params: { taskId } },
    ResultSchema,
    options,
  );
  return result as CallToolResult;
};

/** How long to wait before the next poll: the server's interval, within sane bounds. */
export const pollDelayMs = (task: ToolTask, bounds: { minMs: number; maxMs: number }) =>
  Math.min(bounds.maxMs, Math.max(bounds.minMs, task.pollIntervalMs ?? 1_000));
