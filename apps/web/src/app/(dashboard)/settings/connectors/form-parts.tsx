"use client";
/**
 * Parts of the settings forms. What a failed procedure tells a form: its message, its
 * error code and the field it names (an AppError's `location.path`, or the path of the
 * first problem of a refused input), so a form can show the message at that field and mark
 * the field invalid; the end of a form; a choice of lanes.
 */

type Failure = {
  message: string;
  data?: {
    appCode?: string | null;
    location?: { path?: string } | null;
    zodIssues?: unknown;
  } | null;
};

export type FormError = { message: string; code: string | null; path: string | null };

type Issue = { path?: (string | number)[]; message?: string };

const dotted = (path: (string | number)[]) =>
  path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");

export const formError = (error: Failure | null | undefined): FormError | null => {
  if (!error) return null;
  const issue = (Array.isArray(error.data?.zodIssues) ? (error.data.zodIssues as Issue[]) : [])[0];
  if (issue?.message) {
    const path = issue.path && issue.path.length > 0 ? dotted(issue.path) : null;
    return {
      message: path ? `${path}: ${issue.message}` : issue.message,
      code: "BAD_REQUEST",
      path,
    };
  }
  return {
    message: error.message,
    code: error.data?.appCode ?? null,
    path: error.data?.location?.path ?? null,
  };
};

/** The form field a path names: `args[1]` → args, `tool_allow.default.deny[0]` → tool_allow. */
export const fieldOf = (path: string | null) => (path ? (/^[^.[]+/.exec(path)?.[0] ?? null) : null);

/** Marks a control invalid and points it at its error message when `field` is the one at fault. */
export const invalidProps = (form: string, field: string, error: FormError | null) =>
  fieldOf(error?.path ?? null) === field
    ? { "aria-invalid": true, "aria-describedby": `${form}-${field}-error` }
    : {};

/** The error message under the field it names; nothing when the error is elsewhere. */
export function FieldError(props: { form: string; field: string; error: FormError | null }) {
  if (fieldOf(props.error?.path ?? null) !== props.field) return null;
  return (
    <p id={`${props.form}-${props.field}-error`} className="error small field-error" role="alert">
      {props.error!.message}
    </p>
  );
}

/** The error when no field of the form shows it. */
export function FormAlert(props: { error: FormError | null; fields: readonly string[] }) {
  const { error } = props;
  if (!error || props.fields.includes(fieldOf(error.path) ?? "")) return null;
  return (
    <p className="error" role="alert">
      {error.code && error.code !== "BAD_REQUEST" ? <code>{error.code}</code> : null}{" "}
      {error.message}
    </p>
  );
}

/** A settings form's end: Save, and "Saved." once the last save went through. */
export function SaveActions(props: { pending: boolean; saved: boolean }) {
  return (
    <div className="form-actions">
      <button type="submit" className="primary" disabled={props.pending}>
        Save
      </button>
      {props.saved && !props.pending ? (
        <span role="status" className="muted">
          Saved.
        </span>
      ) : null}
    </div>
  );
}

/** A form's end: the error no field shows, the submit button and Cancel. */
export function FormFooter(props: {
  error: FormError | null;
  fields: readonly string[];
  submit: string;
  pending: boolean;
  onCancel: () => void;
}) {
  return (
    <>
      <FormAlert error={props.error} fields={props.fields} />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={props.pending}>
          {props.submit}
        </button>
        <button type="button" className="link" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </>
  );
}

/** One checkbox per lane, `*` (every lane) first when offered; `*` alone stands for every lane. */
export function LaneChoice(props: {
  legend: string;
  lanes: readonly string[];
  chosen: string[];
  onChange: (lanes: string[]) => void;
  every?: boolean;
  describedBy?: Record<string, unknown>;
}) {
  const all = props.chosen.includes("*");
  const toggle = (lane: string, on: boolean) => {
    if (lane === "*") return props.onChange(on ? ["*"] : []);
    props.onChange(
      on
        ? [...props.chosen.filter((l) => l !== "*"), lane]
        : props.chosen.filter((l) => l !== lane),
    );
  };
  return (
    <fieldset className="choice-group" {...props.describedBy}>
      <legend>{props.legend}</legend>
      {props.every ? (
        <label className="inline">
          <input type="checkbox" checked={all} onChange={(e) => toggle("*", e.target.checked)} />{" "}
          Every lane
        </label>
      ) : null}
      {props.lanes.map((lane) => (
        <label key={lane} className="inline">
          <input
            type="checkbox"
            checked={all || props.chosen.includes(lane)}
            disabled={all}
            onChange={(e) => toggle(lane, e.target.checked)}
          />{" "}
          {lane}
        </label>
      ))}
    </fieldset>
  );
}
