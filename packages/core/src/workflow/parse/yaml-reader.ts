/**
 * Typed, strict access to a YAML mapping that records every problem instead of throwing:
 * each error carries its code, YAML path, line and column, and for an unknown key the
 * closest documented one. Readers of the workflow language are built on it.
 */
import {
  isAlias,
  isMap,
  isScalar,
  isSeq,
  type Document,
  type LineCounter,
  type Node,
  type YAMLMap,
} from "yaml";
import { AppError } from "../../errors/app-error";
import type { ErrorCode } from "../../errors/error-codes";
import type { SourceRef } from "../model/workflow-types";
import { suggestName } from "./suggest-name";
import { parseDuration } from "./parse-duration";

export type Diagnostics = {
  file: string;
  errors: AppError[];
  warnings: AppError[];
  lineCounter: LineCounter;
  doc?: Document;
  /** The YAML text, to place a problem inside a scalar (a `{{ }}` in a command). */
  source?: string;
  /** Every name under `states`, including states too broken to read, so targets are not reported twice. */
  declaredStates?: Set<string>;
  /** States left out of the workflow: a `use_template` that could not be expanded (reported). */
  skipStates?: Set<string>;
};

/** Follows an alias (`*name`) to the node it names; other nodes are returned as they are. */
export const deref = (diag: Diagnostics, node: unknown): Node | undefined => {
  if (node === undefined || node === null) return undefined;
  if (isAlias(node) && diag.doc) return node.resolve(diag.doc) ?? undefined;
  return node as Node;
};

export const codes = {
  unknownKey: "WORKFLOW.PARSE.UNKNOWN_FIELD",
  invalid: "WORKFLOW.VALIDATION.INVALID_VALUE",
  missing: "WORKFLOW.VALIDATION.MISSING_FIELD",
  missingState: "WORKFLOW.VALIDATION.MISSING_STATE",
  unsupported: "USER.UNSUPPORTED_FEATURE",
  unsupportedProvider: "USER.MCP_PROXY.UNSUPPORTED_PROVIDER",
} as const;

const DOCS = "docs/workflows.md";

export const sourceOf = (
  diag: Diagnostics,
  node: Node | null | undefined,
  path: string,
): SourceRef => {
  const offset = node?.range?.[0];
  if (offset === undefined) return { path };
  const pos = diag.lineCounter.linePos(offset);
  return { path, line: pos.line, column: pos.col };
};

/** The position of a YAML path such as `states.a.transitions[0].goto`, or the fallback's. */
export const locate = (diag: Diagnostics, path: string, fallback: SourceRef): SourceRef => {
  const keys = path
    .split(/\.|\[(\d+)\]/)
    .filter((k) => k !== undefined && k !== "")
    .map((k) => (/^\d+$/.test(k) ? Number(k) : k));
  const node = diag.doc?.getIn(keys, true) as Node | undefined;
  if (!node || typeof node !== "object" || !node.range) return { ...fallback, path };
  return sourceOf(diag, node, path);
};

export const report = (
  diag: Diagnostics,
  severity: "error" | "warning",
  code: ErrorCode,
  message: string,
  where: SourceRef,
) => {
  const location = { file: diag.file, path: where.path, line: where.line, column: where.column };
  const error = new AppError(code, `${where.path}: ${message}`, { location });
  (severity === "error" ? diag.errors : diag.warnings).push(error);
};

/** The longest duration a field may hold: timers of longer waits fire at once (Node and browsers cap them at 2^31-1 ms). */
export const MAX_DURATION_MS = 24 * 24 * 3_600_000;

/** Each mapping's pairs by key, built once, so reading a mapping of n keys stays linear. */
const indexes = new WeakMap<YAMLMap, Map<string, unknown>>();
const keyOf = (key: unknown) => (isScalar(key) ? String(key.value) : String(key));
const indexOf = (node: YAMLMap): Map<string, unknown> => {
  let index = indexes.get(node);
  if (!index) {
    index = new Map();
    for (const pair of node.items) {
      const key = keyOf(pair.key);
      if (!index.has(key)) index.set(key, pair.value);
    }
    indexes.set(node, index);
  }
  return index;
};

export class YamlReader {
  constructor(
    readonly diag: Diagnostics,
    readonly node: YAMLMap,
    readonly path: string,
  ) {}

  at(key: string): string {
    return this.path ? `${this.path}.${key}` : key;
  }

  where(key?: string): SourceRef {
    const node = key === undefined ? this.node : (this.raw(key) ?? this.node);
    return sourceOf(this.diag, node, key === undefined ? this.path || "$" : this.at(key));
  }

  error(code: ErrorCode, message: string, key?: string) {
    report(this.diag, "error", code, message, this.where(key));
  }

  warn(code: ErrorCode, message: string, key?: string) {
    report(this.diag, "warning", code, message, this.where(key));
  }

  has(key: string): boolean {
    return indexOf(this.node).has(key);
  }

  raw(key: string): Node | undefined {
    return deref(this.diag, indexOf(this.node).get(key));
  }

  keys(): string[] {
    return this.node.items.map((p) => keyOf(p.key));
  }

  /** Reports keys outside `allowed`, naming the feature for known out-of-scope ones. */
  checkKeys(
    allowed: readonly string[],
    unsupported: Record<string, string> = {},
    unknownCode: ErrorCode = codes.unknownKey,
  ) {
    for (const pair of this.node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      if (allowed.includes(key)) continue;
      const where = sourceOf(this.diag, pair.key as Node, this.at(key));
      const feature = unsupported[key];
      if (feature) {
        report(
          this.diag,
          "error",
          codes.unsupported,
          `${feature} is not supported (see ${DOCS})`,
          where,
        );
        continue;
      }
      const hint = suggestName(key, allowed);
      report(
        this.diag,
        "error",
        unknownCode,
        `unknown key "${key}"${hint ? ` (did you mean "${hint}"?)` : ""}`,
        where,
      );
    }
  }

  scalar(key: string): unknown {
    const node = this.raw(key);
    if (node === undefined) return undefined;
    if (!isScalar(node)) return node;
    return node.value;
  }

  str(key: string, required = false): string | undefined {
    const value = this.scalar(key);
    if (value === undefined || value === null) {
      if (required) this.error(codes.missing, `"${key}" is required`, key);
      return undefined;
    }
    if (typeof value === "string") {
      if (!value.includes("\0")) return value;
      this.error(codes.invalid, `"${key}" must not contain a NUL character`, key);
      return undefined;
    }
    if (typeof value === "number" || typeof value === "boolean") return String(value);
    this.error(codes.invalid, `"${key}" must be a string`, key);
    return undefined;
  }

  bool(key: string, fallback: boolean): boolean {
    const value = this.scalar(key);
    if (value === undefined || value === null) return fallback;
    if (typeof value === "boolean") return value;
    if (value === "true" || value === "false") return value === "true";
    this.error(codes.invalid, `"${key}" must be true or false`, key);
    return fallback;
  }

  num(
    key: string,
    opts: { integer?: boolean; min?: number; max?: number } = {},
  ): number | undefined {
    const value = this.scalar(key);
    if (value === undefined || value === null) return undefined;
    const n =
      typeof value === "number"
        ? value
        : typeof value === "string" && value.trim() !== ""
          ? Number(value)
          : NaN;
    const kind = opts.integer ? "an integer" : "a number";
    if (!Number.isFinite(n) || (opts.integer && !Number.isInteger(n))) {
      this.error(codes.invalid, `"${key}" must be ${kind}`, key);
      return undefined;
    }
    if ((opts.min !== undefined && n < opts.min) || (opts.max !== undefined && n > opts.max)) {
      const range = `${opts.min ?? "-∞"}..${opts.max ?? "∞"}`;
      this.error(codes.invalid, `"${key}" must be ${kind} in ${range}, got ${n}`, key);
      return undefined;
    }
    return n;
  }

  /** A duration in ms: a bare number is seconds (AWF's `timeout: 30`), or "1m30s", "500ms". */
  duration(key: string): number | undefined {
    const value = this.scalar(key);
    if (value === undefined || value === null) return undefined;
    const ms = parseDuration(value);
    if (ms === undefined)
      this.error(codes.invalid, `"${key}" must be a duration such as 30, "30s" or "1m30s"`, key);
    else if (ms > MAX_DURATION_MS) {
      this.error(codes.invalid, `"${key}" must be at most 576h (24 days)`, key);
      return undefined;
    }
    return ms;
  }

  oneOf<T extends string>(key: string, values: readonly T[], fallback?: T): T | undefined {
    const value = this.str(key);
    if (value === undefined) return fallback;
    if ((values as readonly string[]).includes(value)) return value as T;
    const hint = suggestName(value, values);
    this.error(
      codes.invalid,
      `"${key}" must be one of ${values.join(", ")}${hint ? ` (did you mean "${hint}"?)` : ""}`,
      key,
    );
    return fallback;
  }

  map(key: string, required = false): YamlReader | undefined {
    const node = this.raw(key);
    if (node === undefined) {
      if (required) this.error(codes.missing, `"${key}" is required`, key);
      return undefined;
    }
    if (!isMap(node)) {
      this.error(codes.invalid, `"${key}" must be a mapping`, key);
      return undefined;
    }
    return new YamlReader(this.diag, node, this.at(key));
  }

  /** Items of a sequence with their paths; a non-sequence is reported. */
  seq(key: string): { node: Node; path: string }[] | undefined {
    const node = this.raw(key);
    if (node === undefined) return undefined;
    if (!isSeq(node)) {
      this.error(codes.invalid, `"${key}" must be a list`, key);
      return undefined;
    }
    return node.items.map((item, i) => ({
      node: deref(this.diag, item) ?? (item as Node),
      path: `${this.at(key)}[${i}]`,
    }));
  }

  strList(key: string): string[] | undefined {
    const items = this.seq(key);
    if (!items) return undefined;
    const out: string[] = [];
    for (const { node, path } of items) {
      const value: unknown = isScalar(node) ? node.value : undefined;
      if (typeof value === "string" || typeof value === "number") out.push(String(value));
      else
        report(
          this.diag,
          "error",
          codes.invalid,
          "must be a string",
          sourceOf(this.diag, node, path),
        );
    }
    return out;
  }

  child(raw: Node, path: string): YamlReader | undefined {
    const node = deref(this.diag, raw);
    if (isMap(node)) return new YamlReader(this.diag, node, path);
    report(this.diag, "error", codes.invalid, "must be a mapping", sourceOf(this.diag, raw, path));
    return undefined;
  }
}
