/**
 * `switchyard runs ...` against a server: start a workflow's run (and follow it: its events
 * and its steps' output as they happen, the exit code from how it ended), list, read, cancel
 * a run, and print its logs.
 */
import { AppError, surfaceOf } from "@switchyard/core/errors";
import {
  followRunEvents,
  SwitchyardApiError,
  type RunEvent,
  type RunStreamEnd,
} from "@switchyard/client";
import { appErrorOf, call, connect, unreachable, type Connected } from "./server-access";
import { inputPairs, parseServerArgs, subcommands } from "./server-args";
import type { Io } from "./validate-command";
import { workflowNamed } from "./workflows-command";

export const RUNS_USAGE = `usage: switchyard runs <start|list|get|cancel|logs> [options]
  start <workflow> [--input key=value]... [--follow] [--json]
                         start a run of the workflow (by name); --follow prints its events and
                         its steps' output as they happen and exits with the run's outcome
                         (0 succeeded, else the exit code of its error: 1 USER, 2 WORKFLOW,
                         3 EXECUTION, 4 SYSTEM)
  list [--workflow <name>] [--status <s,...>] [--limit <n>] [--json]
  get <run-id> [--json]    a run with its steps
  cancel <run-id> [--json]
  logs <run-id>            the run's steps' output (--json: the NDJSON log lines)`;

/** How an ended run exits: 0 when it succeeded, else its error code's family. */
export const exitCodeOfRun = (run: { status: string; errorCode: string | null }) => {
  switch (run.status) {
    case "succeeded":
      return 0;
    case "cancelled":
      return surfaceOf("EXECUTION.CANCELLED").exit;
    default:
      return surfaceOf(run.errorCode ?? "EXECUTION.STEP_FAILED").exit;
  }
};

/** A payload field as text: strings and numbers as they are, anything else as JSON. */
const text = (value: unknown) =>
  typeof value === "string" || typeof value === "number"
    ? String(value)
    : value === undefined || value === null
      ? ""
      : JSON.stringify(value);

/** One event as a line for a person (step output is printed as it is, not here). */
const describe = (event: RunEvent): string | undefined => {
  const p = (event.payload ?? {}) as Record<string, unknown>;
  switch (event.type) {
    case "run.started":
    case "run.resumed":
      return `${event.type === "run.started" ? "started" : "resumed"} ${text(p.workflow ?? "")}`;
    case "run.waiting":
      return "waiting: the team is at its limit of runs at once";
    case "state.started":
      return `> ${text(p.state)} (${text(p.kind)})`;
    case "state.finished":
      return `< ${text(p.state)}: ${text(p.status)}${p.exitCode === null || p.exitCode === undefined ? "" : ` (exit ${text(p.exitCode)})`}`;
    case "step.retry":
      return `${text(p.state)}: retry ${text(p.attempt)} in ${text(p.delayMs)} ms`;
    case "log":
      return `${p.state ? `${text(p.state)}: ` : ""}${text(p.message)}`;
    case "agent.event": {
      // { state, attempt, event }: the agent's text, tool calls and their results, usage, errors
      const agent = (p.event ?? {}) as Record<string, unknown>;
      const at = `${text(p.state)}:`;
      switch (agent.type) {
        case "text":
          return `${at} ${text(agent.text)}`;
        case "tool_use":
          return `${at} tool ${text(agent.name)} ${text(agent.arguments)}`;
        case "tool_result":
          return `${at} ${agent.isError ? "tool error" : "tool result"}: ${text(agent.text).slice(0, 200)}`;
        case "usage":
          return `${at} ${text(agent.inputTokens)} tokens in, ${text(agent.outputTokens)} out`;
        case "error":
          return `${at} [${text(agent.code)}] ${text(agent.message)}`;
        default:
          return undefined;
      }
    }
    case "run.finished":
      return `finished: ${text(p.status)}${p.errorCode ? ` [${text(p.errorCode)}] ${text(p.errorMessage ?? "")}` : ""}`;
    default:
      return undefined;
  }
};

const follow = async (
  { access, client }: Connected,
  runId: string,
  io: Io,
  json: boolean,
): Promise<number> => {
  let end: RunStreamEnd;
  let finishedSaid = false;
  try {
    const events = followRunEvents(client, runId);
    for (let next = await events.next(); ; next = await events.next()) {
      if (next.done) {
        end = next.value;
        break;
      }
      const event = next.value;
      finishedSaid ||= event.type === "run.finished";
      if (json) io.out(`${JSON.stringify(event)}\n`);
      else if (event.type === "step.output") {
        const chunk = event.payload as { stream?: string; text?: string };
        (chunk.stream === "stderr" ? io.err : io.out)(chunk.text ?? "");
      } else {
        const line = describe(event);
        if (line) io.err(`${line}\n`);
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof SwitchyardApiError) throw appErrorOf(error);
    throw unreachable(access, error);
  }
  if (end.reason === "access_ended")
    throw new AppError(
      end.error.code as "UNAUTHORIZED",
      `${end.error.message}: the token no longer holds; log in again`,
    );
  const run = await call(access, client.GET("/runs/{id}", { params: { path: { id: runId } } }));
  if (json)
    io.out(
      `${JSON.stringify({ end, run: { id: run.id, status: run.status, errorCode: run.errorCode, errorMessage: run.errorMessage } })}\n`,
    );
  else if (run.status !== "succeeded" && !finishedSaid)
    io.err(
      `run ${run.id} ${run.status}${run.errorCode ? `: [${run.errorCode}] ${run.errorMessage ?? ""}` : ""}\n`,
    );
  return exitCodeOfRun(run);
};

const start = async (argv: string[], io: Io, env: NodeJS.ProcessEnv) => {
  const { flags, positionals } = parseServerArgs(
    argv,
    { input: "strings", follow: "boolean", json: "boolean" },
    RUNS_USAGE,
  );
  const [workflow] = positionals;
  if (!workflow || positionals.length > 1)
    throw new AppError("USER.INPUT.VALIDATION_FAILED", RUNS_USAGE);
  const inputs = inputPairs(flags.input);
  const connected = await connect(env);
  const { access, client } = connected;
  const started = await call(
    access,
    client.POST("/workflows/{id}/runs", {
      params: { path: { id: workflow } },
      body: { inputs },
    }),
  ).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "NOT_FOUND")
      throw new AppError(
        "NOT_FOUND",
        `no workflow named "${workflow}" in the token's team: \`switchyard workflows list\` shows their names`,
        { location: { path: "workflow" } },
      );
    throw error;
  });
  if (!flags.follow) {
    io.out(flags.json ? `${JSON.stringify(started)}\n` : `${started.id}\n`);
    return 0;
  }
  if (!flags.json) io.err(`run ${started.id} ${started.status}\n`);
  return follow(connected, started.id, io, flags.json);
};

const list = async (argv: string[], io: Io, env: NodeJS.ProcessEnv) => {
  const { flags } = parseServerArgs(
    argv,
    { workflow: "string", status: "string", limit: "string", json: "boolean" },
    RUNS_USAGE,
  );
  const connected = await connect(env);
  const workflowId = flags.workflow
    ? (await workflowNamed(connected, flags.workflow)).id
    : undefined;
  const page = await call(
    connected.access,
    connected.client.GET("/runs", {
      params: {
        query: {
          ...(workflowId ? { workflowId } : {}),
          // the server checks each status; `a,b` as the API takes it (form, not exploded)
          ...(flags.status ? { status: flags.status.split(",") as "queued"[] } : {}),
          ...(flags.limit ? { limit: flags.limit as unknown as number } : {}),
        },
      },
      querySerializer: { array: { style: "form", explode: false } },
    }),
  );
  if (flags.json) io.out(`${JSON.stringify(page.runs)}\n`);
  else
    for (const run of page.runs)
      io.out(`${run.id}  ${run.status.padEnd(9)}  ${run.workflow.name}  ${run.createdAt}\n`);
  return 0;
};

const oneRun = (argv: string[]) => {
  const { flags, positionals } = parseServerArgs(argv, { json: "boolean" }, RUNS_USAGE);
  const [id] = positionals;
  if (!id || positionals.length > 1) throw new AppError("USER.INPUT.VALIDATION_FAILED", RUNS_USAGE);
  return { id, json: flags.json };
};

const get = async (argv: string[], io: Io, env: NodeJS.ProcessEnv) => {
  const { id, json } = oneRun(argv);
  const { access, client } = await connect(env);
  const run = await call(access, client.GET("/runs/{id}", { params: { path: { id } } }));
  if (json) io.out(`${JSON.stringify(run)}\n`);
  else {
    io.out(
      `${run.id}  ${run.workflow}  ${run.status}${run.errorCode ? `  [${run.errorCode}] ${run.errorMessage ?? ""}` : ""}\n`,
    );
    for (const step of run.steps)
      io.out(
        `  ${step.stateName} #${step.attempt}  ${step.status}${step.exitCode === null ? "" : `  exit ${step.exitCode}`}\n`,
      );
  }
  return 0;
};

const cancel = async (argv: string[], io: Io, env: NodeJS.ProcessEnv) => {
  const { id, json } = oneRun(argv);
  const { access, client } = await connect(env);
  const answer = await call(access, client.POST("/runs/{id}/cancel", { params: { path: { id } } }));
  io.out(json ? `${JSON.stringify({ id, ...answer })}\n` : `${id} ${answer.status}\n`);
  return 0;
};

const logs = async (argv: string[], io: Io, env: NodeJS.ProcessEnv) => {
  const { id, json } = oneRun(argv);
  const { access, client } = await connect(env);
  const text = await call(
    access,
    client.GET("/runs/{id}/logs", { params: { path: { id } }, parseAs: "text" }),
  );
  if (json) {
    io.out(text);
    return 0;
  }
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const entry = JSON.parse(line) as Record<string, unknown>;
    if (entry.kind !== "step") continue;
    io.out(`--- ${String(entry.state)} #${String(entry.attempt)} ${String(entry.status)}\n`);
    for (const stream of ["stdout", "stderr"] as const) {
      const output = entry[stream];
      if (typeof output === "string" && output)
        io.out(output.endsWith("\n") ? output : `${output}\n`);
    }
  }
  return 0;
};

export const runRuns = subcommands({ start, list, get, cancel, logs }, RUNS_USAGE);
