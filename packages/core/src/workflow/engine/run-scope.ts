/**
 * The values a template or condition can read during a run (inputs, states, env,
 * workflow, error, loop, context), with AWF's spellings accepted: `Output` or `output`,
 * `ExitCode` or `exit_code`, with or without the leading dot.
 */
import { normaliseField, STATE_FIELDS } from "../model/state-fields";
import type { EvalEnv } from "../expression/evaluate-expression";
import type { Checkpoint, StateResult } from "../model/engine-ports";

export type LoopFrame = { item: unknown; index: number; length: number; parent?: LoopFrame };
export type RunError = { type: string; message: string; state?: string };

type ScopeSources = {
  checkpoint: Checkpoint;
  workflowName: string;
  env: Record<string, string>;
  now: () => number;
  readFile: (path: string) => string | undefined;
  loop?: LoopFrame;
  error?: RunError;
};

const dig = (value: unknown, parts: string[]): unknown => {
  let cur = value;
  for (const p of parts) {
    if (cur === undefined || cur === null) return undefined;
    if (typeof cur === "string") {
      try {
        cur = JSON.parse(cur) as unknown;
      } catch {
        return undefined;
      }
    }
    if (typeof cur !== "object" || cur === null) return undefined;
    cur =
      Array.isArray(cur) && /^\d+$/.test(p) ? cur[Number(p)] : (cur as Record<string, unknown>)[p];
  }
  return cur;
};

/**
 * A path into a step's `state.conversation`, read with AWF's spellings: `stopped_by`,
 * `StoppedBy` and `stoppedby` are one field, as for the state's own fields.
 */
const digConversation = (value: unknown, parts: string[]): unknown => {
  let cur = value;
  for (const p of parts) {
    if (cur === undefined || cur === null || typeof cur !== "object") return undefined;
    if (Array.isArray(cur)) {
      cur = /^\d+$/.test(p) ? (cur as unknown[])[Number(p)] : undefined;
      continue;
    }
    const key = Object.keys(cur).find((k) => normaliseField(k) === normaliseField(p));
    cur = key === undefined ? undefined : (cur as Record<string, unknown>)[key];
  }
  return cur;
};

const stateField = (r: StateResult, field: string): unknown => {
  switch (normaliseField(field)) {
    case "output":
      return r.output;
    case "stdout":
      return r.stdout;
    case "stderr":
      return r.stderr;
    case "exitcode":
      return r.exitCode;
    case "status":
      return r.status;
    case "response":
      return r.response;
    case "json":
      return r.json;
    case "tokensused":
      return r.tokensUsed ?? 0;
    case "tokensinput":
      return r.tokensInput ?? 0;
    case "tokensoutput":
      return r.tokensOutput ?? 0;
    case "tokensestimated":
      return r.tokensEstimated ?? false;
    case "attempts":
      return r.attempts;
    case "error":
      return r.error ?? "";
    case "conversation":
      return r.conversation;
    default:
      return undefined;
  }
};

const loopField = (frame: LoopFrame | undefined, parts: string[]): unknown => {
  if (!frame) return undefined;
  const [field, ...rest] = parts;
  if (field === undefined) return frame.item;
  switch (normaliseField(field)) {
    case "parent":
      return loopField(frame.parent, rest);
    case "item":
      return rest.length ? dig(frame.item, rest) : frame.item;
    case "index":
      return frame.index;
    case "index1":
      return frame.index + 1;
    case "first":
      return frame.index === 0;
    case "last":
      return frame.length >= 0 && frame.index === frame.length - 1;
    case "length":
      return frame.length;
    default:
      return undefined;
  }
};

export const scopeEnv = (s: ScopeSources): EvalEnv => ({
  readFile: s.readFile,
  paths: () => [
    ...Object.keys(s.checkpoint.inputs).map((n) => ["inputs", n]),
    ...Object.keys(s.checkpoint.results).flatMap((n) => STATE_FIELDS.map((f) => ["states", n, f])),
    ...Object.keys(s.checkpoint.context).map((n) => ["context", n]),
    ...(s.loop
      ? ["Item", "Index", "Index1", "First", "Last", "Length"].map((f) => ["loop", f])
      : []),
    ...["ID", "Name", "Duration"].map((f) => ["workflow", f]),
    ...(s.error ? ["type", "message", "state"].map((f) => ["error", f]) : []),
  ],
  resolve: (parts) => {
    const [ns, name, ...rest] = parts;
    if (name === undefined) return undefined;
    switch (ns) {
      case "inputs":
        return dig(s.checkpoint.inputs[name], rest);
      case "env":
        return s.env[name];
      case "context":
        return dig(s.checkpoint.context[name], rest);
      case "states": {
        const r = s.checkpoint.results[name];
        if (!r) return undefined;
        const [field, ...more] = rest;
        if (field === undefined) return r.output;
        const value = stateField(r, field);
        if (!more.length) return value;
        return normaliseField(field) === "conversation"
          ? digConversation(value, more)
          : dig(value, more);
      }
      case "workflow":
        switch (normaliseField(name)) {
          case "id":
            return s.checkpoint.runId;
          case "name":
            return s.workflowName;
          case "duration":
            return `${Math.max(0, Math.round((s.now() - s.checkpoint.startedAt) / 1000))}s`;
          default:
            return undefined;
        }
      case "error":
        return s.error ? (s.error as Record<string, unknown>)[normaliseField(name)] : undefined;
      case "loop":
        return loopField(s.loop, [name, ...rest]);
      case undefined:
      default:
        return undefined;
    }
  },
});
