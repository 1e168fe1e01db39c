/**
 * Turns the inputs a run was started with (strings from `--input k=v`, or typed JSON from
 * the API) into typed values: defaults applied, types coerced, validation rules checked.
 * Every problem is reported at once as USER.INPUT.VALIDATION_FAILED, except a `pattern`
 * that runs out of its time budget: USER.PATTERN.TIMEOUT at the input's field.
 */
import { AppError } from "../../errors/app-error";
import { patternTimeout, SLOW_REGEXP_HINT } from "../../patterns/pattern-errors";
import { PATTERN_BUDGET_MS, testPatterns, type PatternResult } from "../../patterns/test-patterns";
import type { InputDefinition } from "../model/workflow-types";

type InputCheckPorts = {
  fileExists?: (path: string) => boolean;
  /** Time budget of each `validation.pattern`, run off the main thread. */
  patternBudgetMs?: number;
};
type ResolvedInputs = { values: Record<string, unknown>; errors: AppError[] };

const coerce = (def: InputDefinition, raw: unknown): { value?: unknown; problem?: string } => {
  switch (def.type) {
    case "string":
      return typeof raw === "string"
        ? { value: raw }
        : {
            value:
              typeof raw === "number" || typeof raw === "boolean"
                ? String(raw)
                : JSON.stringify(raw),
          };
    case "integer":
    case "number": {
      const n =
        typeof raw === "number"
          ? raw
          : typeof raw === "string" && raw.trim() !== ""
            ? Number(raw)
            : NaN;
      if (!Number.isFinite(n) || (def.type === "integer" && !Number.isInteger(n)))
        return { problem: `must be ${def.type === "integer" ? "an integer" : "a number"}` };
      return { value: n };
    }
    case "boolean":
      if (typeof raw === "boolean") return { value: raw };
      if (raw === "true" || raw === "false") return { value: raw === "true" };
      return { problem: "must be true or false" };
    case "array": {
      if (Array.isArray(raw)) return { value: raw };
      if (typeof raw !== "string") return { problem: "must be a list" };
      try {
        const parsed = JSON.parse(raw) as unknown;
        if (Array.isArray(parsed)) return { value: parsed };
      } catch {
        // a comma separated list
      }
      return {
        value: raw
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
      };
    }
    default: {
      const never: never = def.type;
      return never;
    }
  }
};

const check = (
  def: InputDefinition,
  value: unknown,
  ports: InputCheckPorts,
  pattern: PatternResult | undefined,
): string[] => {
  const v = def.validation;
  const problems: string[] = [];
  const text = typeof value === "string" ? value : JSON.stringify(value);
  if (pattern?.kind === "unmatched") problems.push(`does not match pattern ${v.pattern}`);
  if (pattern?.kind === "failed")
    problems.push(`pattern ${v.pattern} could not run: ${pattern.message}`);
  if (v.enum && !v.enum.some((e) => e === value || String(e) === text))
    problems.push(`must be one of ${v.enum.map(String).join(", ")}`);
  if (typeof value === "number") {
    if (v.min !== undefined && value < v.min)
      problems.push(`value ${value} is below minimum ${v.min}`);
    if (v.max !== undefined && value > v.max)
      problems.push(`value ${value} exceeds maximum ${v.max}`);
  }
  const paths = Array.isArray(value)
    ? value.filter((x): x is string => typeof x === "string")
    : typeof value === "string"
      ? [value]
      : [];
  const exts = v.fileExtension;
  if (exts && paths.some((p) => !exts.some((ext) => p.endsWith(ext))))
    problems.push(`must end with one of ${exts.join(", ")}`);
  if (v.fileExists && ports.fileExists)
    for (const p of paths) if (!ports.fileExists(p)) problems.push(`file "${p}" does not exist`);
  return problems;
};

export const resolveInputs = async (
  defs: InputDefinition[],
  given: Record<string, unknown>,
  ports: InputCheckPorts = {},
): Promise<ResolvedInputs> => {
  const values: Record<string, unknown> = {};
  const errors: AppError[] = [];
  const fail = (name: string, problem: string) =>
    errors.push(
      new AppError("USER.INPUT.VALIDATION_FAILED", `inputs.${name}: ${problem}`, {
        location: { path: `inputs.${name}` },
      }),
    );
  for (const name of Object.keys(given)) {
    if (!defs.some((d) => d.name === name))
      fail(
        name,
        `is not an input of this workflow (inputs: ${defs.map((d) => d.name).join(", ") || "none"})`,
      );
  }
  const coerced: { def: InputDefinition; value: unknown }[] = [];
  for (const def of defs) {
    const raw = given[def.name] ?? def.default;
    if (raw === undefined || raw === null) {
      if (def.required) fail(def.name, `is required (${def.type})`);
      continue;
    }
    const { value, problem } = coerce(def, raw);
    if (problem) fail(def.name, problem);
    else coerced.push({ def, value });
  }
  const budgetMs = ports.patternBudgetMs ?? PATTERN_BUDGET_MS;
  const patterned = coerced.filter(
    (c): c is { def: InputDefinition & { validation: { pattern: string } }; value: string } =>
      c.def.validation.pattern !== undefined && typeof c.value === "string",
  );
  const results = await testPatterns(
    patterned.map((c) => ({ pattern: c.def.validation.pattern, value: c.value })),
    { budgetMs },
  );
  const patternOf = new Map(patterned.map((c, i) => [c.def.name, results[i]]));
  for (const { def, value } of coerced) {
    const pattern = patternOf.get(def.name);
    if (pattern?.kind === "timeout")
      errors.push(
        patternTimeout(
          budgetMs,
          `the validation pattern ${def.validation.pattern} is too slow on this value (${SLOW_REGEXP_HINT}): simplify the pattern`,
          { subject: `inputs.${def.name}`, location: { path: `inputs.${def.name}` } },
        ),
      );
    const problems = check(def, value, ports, pattern);
    for (const p of problems) fail(def.name, p);
    if (problems.length === 0 && pattern?.kind !== "timeout") values[def.name] = value;
  }
  return { values, errors };
};
