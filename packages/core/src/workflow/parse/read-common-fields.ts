/**
 * Reads the fields every executable state shares: transitions, inline errors, retry,
 * timeout, capture and step hooks. Kept apart from the per-type readers so each state
 * type lists only what is its own.
 */
import { isMap, isScalar } from "yaml";
import type {
  Capture,
  HookAction,
  InlineError,
  RetryPolicy,
  StateCommon,
  Transition,
} from "../model/workflow-types";
import { MILLISECONDS, parseDuration, timeoutOrNone } from "./parse-duration";
import { parseSize, SIZE_UNITS } from "./parse-size";
import {
  CAPTURE_KEYS,
  HOOK_ACTION_KEYS,
  INLINE_ERROR_KEYS,
  RETRY_KEYS,
  STEP_HOOK_KEYS,
  TRANSITION_KEYS,
} from "./vocabulary";
import { codes, MAX_DURATION_MS, report, sourceOf, type YamlReader } from "./yaml-reader";

export const UNSUPPORTED_STATE_KEYS: Record<string, string> = {};

/** A retry delay: a Go duration string, or a plain number of milliseconds (AWF's retry reference). */
const delayMs = (r: YamlReader, key: string): number | undefined => {
  const value = r.scalar(key);
  if (value === undefined || value === null) return undefined;
  const ms = parseDuration(value, MILLISECONDS);
  if (ms === undefined)
    r.error(
      codes.invalid,
      `"${key}" must be a duration such as "500ms", "2s" or "1m30s", or a number of milliseconds`,
      key,
    );
  else if (ms > MAX_DURATION_MS) {
    r.error(codes.invalid, `"${key}" must be at most 576h (24 days)`, key);
    return undefined;
  }
  return ms;
};

const readRetry = (r: YamlReader): RetryPolicy => {
  r.checkKeys(RETRY_KEYS);
  const codesList = r.seq("retryable_exit_codes") ?? [];
  const retryableExitCodes: number[] = [];
  for (const { node, path } of codesList) {
    const v: unknown = isScalar(node) ? node.value : undefined;
    if (typeof v === "number" && Number.isInteger(v)) retryableExitCodes.push(v);
    else
      report(
        r.diag,
        "error",
        codes.invalid,
        "exit codes must be integers",
        sourceOf(r.diag, node, path),
      );
  }
  return {
    maxAttempts: r.num("max_attempts", { integer: true, min: 1, max: 100 }) ?? 1,
    initialDelayMs: delayMs(r, "initial_delay") ?? 0,
    maxDelayMs: delayMs(r, "max_delay"),
    backoff:
      r.oneOf("backoff", ["constant", "linear", "exponential"] as const, "constant") ?? "constant",
    multiplier: r.num("multiplier", { min: 0 }) ?? 2,
    jitter: r.num("jitter", { min: 0, max: 1 }) ?? 0,
    retryableExitCodes,
  };
};

export const readHookActions = (r: YamlReader, key: string): HookAction[] => {
  const raw = r.raw(key);
  if (raw === undefined) return [];
  const items = isMap(raw) ? [{ node: raw, path: r.at(key) }] : (r.seq(key) ?? []);
  const out: HookAction[] = [];
  for (const { node, path } of items) {
    const h = r.child(node, path);
    if (!h) continue;
    h.checkKeys(HOOK_ACTION_KEYS);
    const command = h.str("command");
    const log = h.str("log");
    if ((command === undefined) === (log === undefined)) {
      h.error(codes.invalid, 'a hook action has exactly one of "command" or "log"');
    } else if (command !== undefined)
      out.push({ kind: "command", command, timeoutMs: timeoutOrNone(h.duration("timeout")) });
    else if (log !== undefined) out.push({ kind: "log", message: log });
  }
  return out;
};

const readTransitions = (r: YamlReader): Transition[] => {
  const out: Transition[] = [];
  for (const { node, path } of r.seq("transitions") ?? []) {
    const t = r.child(node, path);
    if (!t) continue;
    t.checkKeys(TRANSITION_KEYS);
    const goto = t.str("goto", true);
    if (goto !== undefined) out.push({ when: t.str("when"), goto });
  }
  return out;
};

const readOnFailure = (r: YamlReader): string | InlineError | undefined => {
  const raw = r.raw("on_failure");
  if (raw === undefined || !isMap(raw)) return r.str("on_failure");
  const e = r.map("on_failure")!;
  e.checkKeys(INLINE_ERROR_KEYS);
  return {
    message: e.str("message") ?? "step failed",
    status: e.num("status", { integer: true, min: 1, max: 255 }) ?? 1,
  };
};

/** capture.max_size: bytes, or a size in AWF's units ("500KB", "1MB"); at least one byte. */
const maxSizeOf = (c: YamlReader): number | undefined => {
  const value = c.scalar("max_size");
  if (value === undefined || value === null) return undefined;
  const bytes = parseSize(value);
  if (bytes === undefined || bytes < 1) {
    c.error(
      codes.invalid,
      `"max_size" must be a whole number of bytes (at least 1), or a size in ${SIZE_UNITS} such as "500KB" or "1MB"`,
      "max_size",
    );
    return undefined;
  }
  return bytes;
};

const readCapture = (r: YamlReader): Capture | undefined => {
  const c = r.map("capture");
  if (!c) return undefined;
  c.checkKeys(CAPTURE_KEYS);
  return { stdout: c.str("stdout"), stderr: c.str("stderr"), maxSize: maxSizeOf(c) };
};

export const readCommon = (r: YamlReader, name: string): StateCommon => {
  const hooks = r.map("hooks");
  hooks?.checkKeys(STEP_HOOK_KEYS);
  const pre = [...(hooks ? readHookActions(hooks, "pre") : []), ...readHookActions(r, "pre_hook")];
  const post = [
    ...(hooks ? readHookActions(hooks, "post") : []),
    ...readHookActions(r, "post_hook"),
  ];
  const retry = r.map("retry");
  const rawTimeout = r.scalar("timeout");
  const timeoutTemplate =
    typeof rawTimeout === "string" && rawTimeout.includes("{{") ? rawTimeout : undefined;
  return {
    name,
    description: r.str("description"),
    onSuccess: r.str("on_success"),
    onFailure: readOnFailure(r),
    transitions: readTransitions(r),
    continueOnError: r.bool("continue_on_error", false),
    timeoutMs: timeoutTemplate === undefined ? timeoutOrNone(r.duration("timeout")) : undefined,
    timeoutTemplate,
    retry: retry ? readRetry(retry) : undefined,
    capture: readCapture(r),
    hooks: { pre, post },
    source: r.where(),
  };
};
