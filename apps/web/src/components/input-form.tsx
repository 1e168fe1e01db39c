"use client";
/**
 * A start form generated from a workflow's `inputs` declaration: one labelled field per
 * input by its type (a checkbox for booleans, a list for enums, numbers with min and max,
 * a text field with the pattern), defaults filled in, required ones marked. The browser
 * checks what it can; the server checks everything again when the run starts and names
 * the input it refuses, which is shown at that field.
 */
import { useId, useState, type FormEvent } from "react";
import styles from "./input-form.module.css";

export type InputDefinition = {
  name: string;
  type: "string" | "integer" | "number" | "boolean" | "array";
  required: boolean;
  default?: unknown;
  description?: string;
  validation: {
    pattern?: string;
    enum?: unknown[];
    min?: number;
    max?: number;
    fileExtension?: string[];
  };
};

type Values = Record<string, string | boolean>;

const initialValue = (d: InputDefinition): string | boolean => {
  if (d.type === "boolean") return d.default === true || d.default === "true";
  if (d.default === undefined || d.default === null) return "";
  if (Array.isArray(d.default)) return d.default.map(String).join("\n");
  return typeof d.default === "string" ? d.default : JSON.stringify(d.default);
};

/** The typed inputs from the form's text, leaving out empty optional fields (their defaults apply). */
const typed = (
  defs: InputDefinition[],
  values: Values,
): { inputs: Record<string, unknown>; problems: Record<string, string> } => {
  const inputs: Record<string, unknown> = {};
  const problems: Record<string, string> = {};
  for (const d of defs) {
    const raw = values[d.name];
    if (d.type === "boolean") {
      inputs[d.name] = raw === true;
      continue;
    }
    const text = typeof raw === "string" ? raw.trim() : "";
    if (text === "") {
      if (d.required && d.default === undefined) problems[d.name] = "required";
      continue;
    }
    if (d.type === "integer" || d.type === "number") {
      const n = Number(text);
      if (!Number.isFinite(n) || (d.type === "integer" && !Number.isInteger(n)))
        problems[d.name] = `must be ${d.type === "integer" ? "a whole number" : "a number"}`;
      else inputs[d.name] = n;
    } else if (d.type === "array") {
      inputs[d.name] = text
        .split("\n")
        .map((s) => s.trim())
        .filter(Boolean);
    } else if (d.validation.enum) {
      inputs[d.name] = d.validation.enum.find((e) => String(e) === text) ?? text;
    } else inputs[d.name] = text;
  }
  return { inputs, problems };
};

export function InputForm({
  inputs,
  onSubmit,
  pending,
  serverError,
  submitLabel = "Start run",
  label = "Start a run",
}: {
  inputs: InputDefinition[];
  onSubmit: (inputs: Record<string, unknown>) => void;
  pending?: boolean;
  /** The refusal of the last start: shown at the input it names (`location.path` or the message's `inputs.<name>`), else above the button. */
  serverError?: { message: string; path?: string } | null;
  submitLabel?: string;
  /** the form's accessible name */
  label?: string;
}) {
  const id = useId();
  const [values, setValues] = useState<Values>(() =>
    Object.fromEntries(inputs.map((d) => [d.name, initialValue(d)])),
  );
  const [problems, setProblems] = useState<Record<string, string>>({});
  const serverField =
    serverError?.path?.replace(/^inputs\./, "") ??
    /inputs\.([A-Za-z_][\w-]*)/.exec(serverError?.message ?? "")?.[1];

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const r = typed(inputs, values);
    setProblems(r.problems);
    if (Object.keys(r.problems).length === 0) onSubmit(r.inputs);
  };

  return (
    <form className={styles.form} onSubmit={submit} noValidate={false} aria-label={label}>
      {inputs.length === 0 ? (
        <p className="muted small">This workflow declares no inputs.</p>
      ) : null}
      {inputs.map((d) => {
        const fid = `${id}-${d.name}`;
        const hintId = `${fid}-hint`;
        const errId = `${fid}-err`;
        const problem =
          problems[d.name] ?? (serverField === d.name ? serverError?.message : undefined);
        const v = d.validation;
        const hints = [
          d.description,
          d.type !== "string" && d.type !== "boolean"
            ? d.type === "array"
              ? "one item per line"
              : d.type
            : undefined,
          v.min !== undefined ? `min ${v.min}` : undefined,
          v.max !== undefined ? `max ${v.max}` : undefined,
          v.pattern ? `pattern ${v.pattern}` : undefined,
          v.fileExtension ? `ends with ${v.fileExtension.join(", ")}` : undefined,
          !d.required && d.default !== undefined
            ? `default ${JSON.stringify(d.default)}`
            : undefined,
        ].filter(Boolean);
        const described =
          [hints.length ? hintId : "", problem ? errId : ""].filter(Boolean).join(" ") || undefined;
        const common = {
          id: fid,
          name: d.name,
          "aria-describedby": described,
          "aria-invalid": problem ? true : undefined,
        };
        const set = (value: string | boolean) => setValues((s) => ({ ...s, [d.name]: value }));
        let field;
        if (d.type === "boolean") {
          field = (
            <label className="inline" htmlFor={fid}>
              <input
                {...common}
                type="checkbox"
                checked={values[d.name] === true}
                onChange={(e) => set(e.target.checked)}
              />
              {d.name}
            </label>
          );
        } else if (v.enum && v.enum.length > 0) {
          field = (
            <select
              {...common}
              className={styles.select}
              required={d.required}
              value={String(values[d.name] ?? "")}
              onChange={(e) => set(e.target.value)}
            >
              {!d.required || values[d.name] === "" ? (
                <option value="">{d.required ? "Choose…" : "(default)"}</option>
              ) : null}
              {v.enum.map((o) => (
                <option key={String(o)} value={String(o)}>
                  {String(o)}
                </option>
              ))}
            </select>
          );
        } else if (d.type === "array") {
          field = (
            <textarea
              {...common}
              className={styles.textarea}
              rows={3}
              required={d.required}
              value={String(values[d.name] ?? "")}
              onChange={(e) => set(e.target.value)}
            />
          );
        } else {
          const numeric = d.type === "integer" || d.type === "number";
          field = (
            <input
              {...common}
              type={numeric ? "number" : "text"}
              inputMode={d.type === "integer" ? "numeric" : undefined}
              step={d.type === "integer" ? 1 : numeric ? "any" : undefined}
              min={numeric ? v.min : undefined}
              max={numeric ? v.max : undefined}
              pattern={!numeric && v.pattern ? v.pattern : undefined}
              required={d.required}
              value={String(values[d.name] ?? "")}
              onChange={(e) => set(e.target.value)}
            />
          );
        }
        return (
          <div key={d.name} className={styles.field} data-input={d.name}>
            {d.type === "boolean" ? null : (
              <label htmlFor={fid}>
                {d.name}
                {d.required ? <span aria-hidden="true"> *</span> : null}
                {d.required ? <span className="visually-hidden"> (required)</span> : null}
              </label>
            )}
            {field}
            {hints.length ? (
              <span id={hintId} className={styles.hint}>
                {hints.join(" · ")}
              </span>
            ) : null}
            {problem ? (
              <span id={errId} className={styles.fieldError} role="alert">
                {d.name}: {problem}
              </span>
            ) : null}
          </div>
        );
      })}
      {serverError && !inputs.some((d) => d.name === serverField) ? (
        <p className="error" role="alert">
          {serverError.message}
        </p>
      ) : null}
      <div className={styles.actions}>
        <button type="submit" className="primary" disabled={pending}>
          {pending ? "Starting…" : submitLabel}
        </button>
      </div>
    </form>
  );
}
