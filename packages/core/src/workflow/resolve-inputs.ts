/**
 * Turns the inputs a run was started with (strings from `--input k=v`, or typed JSON from
 * the API) into typed values: defaults applied, types coerced, validation rules checked.
 * Every problem is reported at once as USER.INPUT.VALIDATION_FAILED.
 */
import { AppError } from "../errors/app-error";
import type { InputDefinition } from "./workflow-types";

export type InputCheckPorts = { fileExists?: (path: string) => boolean };
export type ResolvedInputs = { values: Record<string, unknown>; errors: AppError[] };

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

const check = (def: InputDefinition, value: unknown, ports: InputCheckPorts): string[] => {
  const v = def.validation;
  const problems: string[] = [];
  const text = typeof value === "string" ? value : JSON.stringify(value);
  if (v.pattern !== undefined && typeof value === "string" && !new RegExp(v.pattern).test(value))
    problems.push(`does not match pattern ${v.pattern}`);
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

export const resolveInputs = (
  defs: InputDefinition[],
  given: Record<string, unknown>,
  ports: InputCheckPorts = {},
): ResolvedInputs => {
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
  for (const def of defs) {
    const raw = given[def.name] ?? def.default;
    if (raw === undefined || raw === null) {
      if (def.required) fail(def.name, `is required (${def.type})`);
      continue;
    }
    const { value, problem } = coerce(def, raw);
    if (problem) {
      fail(def.name, problem);
      continue;
    }
    const problems = check(def, value, ports);
    for (const p of problems) fail(def.name, p);
    if (problems.length === 0) values[def.name] = value;
  }
  return { values, errors };
};
