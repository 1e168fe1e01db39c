/**
 * One attempt of an operation state: its inputs rendered and typed as the operation's
 * schema says, run through the OperationPort, recorded like a step's attempt. The state's
 * Output is the outputs as JSON text and its Response the outputs themselves (AWF's
 * `states.X.Output` and `states.X.Response.field`), both scrubbed of the run's secrets.
 */
import { AppError } from "../../errors/app-error";
import type { EvalEnv } from "../expression/evaluate-expression";
import { renderTemplate } from "../expression/template";
import type {
  AttemptFinished,
  AttemptOf,
  OperationRequest,
  StateResult,
} from "../model/engine-ports";
import { isOperationName, OPERATIONS, type OperationInputSpec } from "../model/operation-catalog";
import type { OperationState } from "../model/workflow-types";
import type { ActionDeps } from "./execute-action";
import { recordAttempt, recordedStatus, resultStatus } from "./record-attempt";

const renderDeep = (value: unknown, scope: EvalEnv): unknown => {
  if (typeof value === "string") return renderTemplate(value, scope);
  if (Array.isArray(value)) return value.map((v) => renderDeep(v, scope));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renderDeep(v, scope)]));
  return value;
};

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

/** A rendered value as its input's type: "42" from a template becomes 42, "true" true. */
const typed = (operation: string, key: string, spec: OperationInputSpec, v: unknown): unknown => {
  const bad = (what: string) =>
    new AppError(
      "USER.INPUT.VALIDATION_FAILED",
      `input "${key}" of ${operation} must be ${what}, got ${JSON.stringify(v)}`,
    );
  switch (spec.type) {
    case "string":
      if (typeof v === "string") return v;
      if (typeof v === "number" || typeof v === "boolean") return String(v);
      throw bad("a string");
    case "integer": {
      const n = typeof v === "string" && /^-?\d+$/.test(v.trim()) ? Number(v) : v;
      if (typeof n === "number" && Number.isInteger(n)) return n;
      throw bad("an integer");
    }
    case "boolean":
      if (typeof v === "boolean") return v;
      if (v === "true" || v === "false") return v === "true";
      throw bad("true or false");
    case "array": {
      const list = typeof v === "string" ? parseJson(v) : v;
      if (Array.isArray(list)) return list;
      throw bad("a list");
    }
    case "object": {
      const map = typeof v === "string" ? parseJson(v) : v;
      if (map && typeof map === "object" && !Array.isArray(map)) return map;
      throw bad("a mapping");
    }
    default: {
      const never: never = spec.type;
      return never;
    }
  }
};

/** The inputs typed by the operation's schema; a required input rendered empty is missing. */
const typedInputs = (
  operation: string,
  inputs: Record<string, unknown>,
): Record<string, unknown> => {
  if (!isOperationName(operation))
    throw new AppError("WORKFLOW.VALIDATION.INVALID_VALUE", `unknown operation "${operation}"`);
  const specs: Record<string, OperationInputSpec> = OPERATIONS[operation].inputs;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(inputs)) {
    const spec = specs[key];
    out[key] = spec === undefined || value === null ? value : typed(operation, key, spec, value);
  }
  for (const [key, spec] of Object.entries(specs))
    if (spec.required && (out[key] === undefined || out[key] === null || out[key] === ""))
      throw new AppError(
        "USER.INPUT.VALIDATION_FAILED",
        `operation ${operation} needs the input "${key}"`,
      );
  return out;
};

export const runOperationStep = async (
  deps: ActionDeps,
  state: OperationState,
  scope: EvalEnv,
  signal: AbortSignal,
  at: AttemptOf,
  workflow: OperationRequest["workflow"],
): Promise<StateResult> => {
  const port = deps.operations;
  if (!port)
    throw new AppError(
      "EXECUTION.OPERATION_FAILED",
      `no operation runner is configured to run "${state.name}"`,
    );
  const inputs = typedInputs(
    state.operation,
    renderDeep(state.inputs, scope) as Record<string, unknown>,
  );
  const adopt = (record: AttemptFinished): StateResult => {
    const output = record.output ?? "";
    return {
      status: resultStatus(record.status),
      output,
      stdout: record.stdout,
      stderr: "",
      exitCode: record.exitCode,
      response: parseJson(output),
      attempts: at.attempt,
      timedOut: record.error?.code === "EXECUTION.TIMEOUT",
      error: record.error?.message,
    };
  };
  const start = {
    state: state.name,
    kind: "operation" as const,
    provider: state.operation,
    ...at,
  };
  return recordAttempt(
    deps,
    start,
    async () => {
      const answer = await port.execute({
        stateName: state.name,
        operation: state.operation,
        inputs,
        env: deps.env,
        workflow,
        timeoutMs: state.timeoutMs,
        signal,
        ...at,
      });
      const timedOut =
        signal.aborted &&
        (signal.reason as { name?: unknown } | undefined)?.name === "TimeoutError";
      const cancelled = signal.aborted && !timedOut;
      const response = deps.scrubber.scrubValue<Record<string, unknown>>(answer.outputs);
      const output = JSON.stringify(response);
      const error = timedOut
        ? { code: "EXECUTION.TIMEOUT" as const, message: `timed out after ${state.timeoutMs} ms` }
        : cancelled
          ? { code: "EXECUTION.CANCELLED" as const, message: "cancelled" }
          : answer.error && {
              code: answer.error.code,
              message: deps.scrubber.scrub(answer.error.message),
            };
      const status = cancelled ? "cancelled" : error ? "failure" : "success";
      const summary = deps.scrubber.scrub(answer.summary ?? "");
      const exitCode = status === "success" ? 0 : 1;
      return {
        result: {
          status,
          output,
          stdout: summary,
          stderr: "",
          exitCode,
          response,
          attempts: at.attempt,
          timedOut,
          error: error?.message,
        },
        record: {
          status: recordedStatus(status),
          exitCode,
          stdout: summary,
          stderr: "",
          output,
          ...(error ? { error } : {}),
        },
      };
    },
    adopt,
  );
};
