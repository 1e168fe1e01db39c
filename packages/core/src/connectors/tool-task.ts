/**
 * A long tool call run as an MCP task, in either form a server may speak:
 * - 2025-11-25 (experimental, 2025 era): the server says it runs `tools/call` as tasks
 *   (`capabilities.tasks`) and the tool says it may or must be run as one
 *   (`execution.taskSupport`); `tools/call` with a `task` answers at once with a task id,
 *   `tasks/get` says how it is going (and how often to ask), `tasks/result` hands over the
 *   tool's result once it has ended, `tasks/cancel` stops it. The v2 client SDK carries these
 *   as plain requests checked by the schemas here.
 * - the 2026-07-28 tasks extension (`io.modelcontextprotocol/tasks` in the server's
 *   `capabilities.extensions`): the client says in each `tools/call`'s `_meta` client
 *   capabilities that it takes tasks, and the server decides per call whether to answer with
 *   the result (`resultType: "complete"`) or a task (`resultType: "task"`); `tasks/get`
 *   carries the result (or the error) inline once the task ended, `tasks/cancel` only
 *   acknowledges. The SDK client refuses a `resultType` it does not know, so these go as raw
 *   requests (raw-requests.ts), their answers checked with @modelcontextprotocol/ext-tasks.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  type Client,
} from "@modelcontextprotocol/client";
import {
  CreateTaskResultV2Schema,
  GetTaskResultV2Schema,
  hasTaskServerCapabilityV2,
  isCreateTaskResultV2,
  withTaskCapabilityV2,
  type DetailedTaskV2,
  type TaskV2,
} from "@modelcontextprotocol/ext-tasks/core/v2";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { SWITCHYARD_CAPABILITIES, SWITCHYARD_CLIENT } from "./connect-client";
import type { RawRequest } from "./raw-requests";

type ToolTaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

export type ToolTask = {
  taskId: string;
  status: ToolTaskStatus;
  statusMessage?: string;
  /** How long the server asks to wait between polls. */
  pollIntervalMs?: number;
  /** When the server forgets the task (its creation plus its ttl). */
  expiresAt?: Date;
  /** The extension's ended task: its result (completed), or why it failed (failed), handed over with it. */
  outcome?: CallToolResult;
  failure?: string;
};

/** Where a task-run call keeps its task, so that a later attempt of the same call follows it. */
export type ToolTaskJournal = {
  /** The id of a task an earlier attempt of this call started and that has not ended. */
  follow?: string;
  created(task: ToolTask): Promise<void>;
  observed(task: ToolTask): Promise<void>;
  /** The call has the ended task's result in hand: no later call follows it. */
  taken(task: ToolTask): Promise<void>;
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

/** Which form of tasks the server speaks, if any. */
type TaskForm = "2025-11-25" | "extension";

/** One server's task methods, in the form it speaks. */
export type ToolTaskWire = {
  form: TaskForm | undefined;
  /** Asks for the call as a task: the task, the result when the server answered at once, or `plain` to make it a plain call. */
  start(
    call: { tool: string; args: Record<string, unknown>; ttlMs: number },
    options: RequestOptions,
  ): Promise<{ task: ToolTask } | { result: CallToolResult } | { plain: true }>;
  /** `tasks/get` (how the task is going) or `tasks/cancel` (stop it): the task as the server says it is then. */
  ask(
    method: "tasks/get" | "tasks/cancel",
    taskId: string,
    options: RequestOptions,
  ): Promise<ToolTask>;
  /** The tool's result of a task that has completed (its own `isError` when the tool failed). */
  result(task: ToolTask, options: RequestOptions): Promise<CallToolResult>;
};

type RequestOptions = { timeout: number; signal?: AbortSignal };

const formOf = (client: Client): TaskForm | undefined => {
  const capabilities = client.getServerCapabilities();
  if (client.getProtocolEra() === "modern")
    return hasTaskServerCapabilityV2(capabilities) ? "extension" : undefined;
  return capabilities?.tasks?.requests?.tools?.call ? "2025-11-25" : undefined;
};

/** The 2025-11-25 form, as plain requests of the SDK client. */
const experimentalWire = (client: Client): ToolTaskWire => ({
  form: formOf(client),
  start: async (call, options) => {
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
  },
  ask: async (method, taskId, options) =>
    toTask(await client.request({ method, params: { taskId } }, TaskSchema, options)),
  result: async (task, options) => {
    const { _meta: _related, ...result } = await client.request(
      { method: "tasks/result", params: { taskId: task.taskId } },
      ResultSchema,
      options,
    );
    return result as CallToolResult;
  },
});

const fromExtension = (wire: TaskV2 | DetailedTaskV2): ToolTask => {
  const created = Date.parse(wire.createdAt);
  const outcome =
    "result" in wire
      ? { outcome: ResultSchema.parse(stripResultType(wire.result)) as CallToolResult }
      : "error" in wire
        ? { failure: wire.error.message }
        : {};
  return {
    taskId: wire.taskId,
    status: wire.status,
    ...(wire.statusMessage ? { statusMessage: wire.statusMessage } : {}),
    ...(wire.pollIntervalMs !== undefined ? { pollIntervalMs: wire.pollIntervalMs } : {}),
    ...(wire.ttlMs !== null && Number.isFinite(created)
      ? { expiresAt: new Date(created + wire.ttlMs) }
      : {}),
    ...outcome,
  };
};

const stripResultType = (result: unknown) => {
  const { resultType: _type, ...rest } = result as Record<string, unknown>;
  return rest;
};

/** The 2026-07-28 extension, as raw requests carrying the client's envelope with the tasks capability. */
const extensionWire = (client: Client, raw: RawRequest): ToolTaskWire => {
  const framed = (params: Record<string, unknown>) =>
    withTaskCapabilityV2({
      ...params,
      _meta: {
        [PROTOCOL_VERSION_META_KEY]: client.getNegotiatedProtocolVersion() ?? "",
        [CLIENT_INFO_META_KEY]: SWITCHYARD_CLIENT,
        [CLIENT_CAPABILITIES_META_KEY]: SWITCHYARD_CAPABILITIES,
      },
    });
  const get = async (taskId: string, options: RequestOptions) =>
    fromExtension(GetTaskResultV2Schema.parse(await raw("tasks/get", framed({ taskId }), options)));
  return {
    form: "extension",
    start: async (call, options) => {
      const answer = await raw(
        "tools/call",
        framed({ name: call.tool, arguments: call.args }),
        options,
      );
      if (isCreateTaskResultV2(answer))
        return { task: fromExtension(CreateTaskResultV2Schema.parse(answer)) };
      // A server that needs input first: the SDK client's own call answers its requests.
      // Anything else is the tool's result (`complete`, or a server leaving the kind out):
      // the tool has run, and is never called a second time.
      if ((answer as { resultType?: unknown } | null)?.resultType === "input_required")
        return { plain: true };
      return { result: ResultSchema.parse(stripResultType(answer)) as CallToolResult };
    },
    ask: async (method, taskId, options) => {
      if (method === "tasks/get") return get(taskId, options);
      await raw("tasks/cancel", framed({ taskId }), options);
      return { taskId, status: "cancelled" };
    },
    result: async (task, options) => {
      const ended = task.outcome ? task : await get(task.taskId, options);
      return (
        ended.outcome ?? {
          isError: true,
          content: [{ type: "text", text: `task "${task.taskId}" ended without a result` }],
        }
      );
    },
  };
};

/** The task methods of the server behind `client`: the form its era and capabilities say. */
export const toolTaskWire = (client: Client, raw: RawRequest): ToolTaskWire =>
  formOf(client) === "extension" ? extensionWire(client, raw) : experimentalWire(client);

/** How long to wait before the next poll: the server's interval, within sane bounds. */
export const pollDelayMs = (task: ToolTask, bounds: { minMs: number; maxMs: number }) =>
  Math.min(bounds.maxMs, Math.max(bounds.minMs, task.pollIntervalMs ?? 1_000));
