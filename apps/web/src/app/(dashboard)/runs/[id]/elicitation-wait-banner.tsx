"use client";
/**
 * A connector server's form (an `elicitation` wait) as a banner: the server asked, in the
 * middle of a tool call, for a few values. Its fields are drawn from the requested schema
 * (text, number, yes/no, one choice, several choices) with the server's defaults filled in;
 * Submit sends them (the server checks them against the form and names a field that does
 * not fit), Decline says no, Cancel dismisses it. The tool call goes on with the answer.
 */
import { useMutation } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState } from "react";
import type { ElicitationField, ElicitationWaitDetail } from "@switchyard/core/governance";
import { LocalTime } from "~/components/local-time";
import type { AppRouter } from "~/server/trpc/root";
import { useTRPC } from "~/trpc/react";
import { WaitCard, WaitFrom, WaitWho } from "./wait-card";

type WaitView = inferRouterOutputs<AppRouter>["waits"]["list"]["waits"][number];

const detailOf = (wait: WaitView): Partial<ElicitationWaitDetail> => wait.detail ?? {};

/** What a field shows before the person touches it: the server's default, or nothing. */
const initialOf = (fields: readonly ElicitationField[]) =>
  Object.fromEntries(fields.map((f) => [f.name, f.default ?? (f.type === "multi" ? [] : "")]));

function FieldInput({
  field,
  value,
  onChange,
}: {
  field: ElicitationField;
  value: unknown;
  onChange: (value: unknown) => void;
}) {
  const id = `elicit-${field.name}`;
  const label = field.title ?? field.name;
  switch (field.type) {
    case "boolean":
      return (
        <label htmlFor={id} className="checkbox">
          <input
            id={id}
            name={field.name}
            type="checkbox"
            checked={value === true}
            onChange={(e) => onChange(e.target.checked)}
          />{" "}
          {label}
        </label>
      );
    case "enum":
      return (
        <label htmlFor={id}>
          {label}
          <select
            id={id}
            name={field.name}
            value={typeof value === "string" ? value : ""}
            required={field.required}
            onChange={(e) => onChange(e.target.value)}
          >
            <option value="">—</option>
            {field.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.title}
              </option>
            ))}
          </select>
        </label>
      );
    case "multi": {
      const chosen = Array.isArray(value) ? (value as string[]) : [];
      return (
        <fieldset>
          <legend>{label}</legend>
          {field.options.map((o) => (
            <label key={o.value} className="checkbox">
              <input
                type="checkbox"
                name={field.name}
                value={o.value}
                checked={chosen.includes(o.value)}
                onChange={(e) =>
                  onChange(
                    e.target.checked ? [...chosen, o.value] : chosen.filter((c) => c !== o.value),
                  )
                }
              />{" "}
              {o.title}
            </label>
          ))}
        </fieldset>
      );
    }
    case "number":
    case "integer":
    case "string":
      return (
        <label htmlFor={id}>
          {label}
          <input
            id={id}
            name={field.name}
            type={
              field.type === "string"
                ? field.format === "email"
                  ? "email"
                  : field.format === "uri"
                    ? "url"
                    : field.format === "date"
                      ? "date"
                      : "text"
                : "number"
            }
            step={field.type === "integer" ? 1 : field.type === "number" ? "any" : undefined}
            value={typeof value === "string" || typeof value === "number" ? value : ""}
            required={field.required}
            onChange={(e) => onChange(e.target.value)}
          />
        </label>
      );
  }
}

type BannerProps = { wait: WaitView; onAnswered: () => void; showRun?: boolean };

/**
 * What a person has typed into each open form, by wait: a banner drawn again (the list
 * refreshed, the page's tree rebuilt) shows it, not the server's defaults.
 */
const drafts = new Map<string, Record<string, unknown>>();

export function ElicitationWaitBanner(props: BannerProps) {
  const { wait, showRun = false } = props;
  const answer = useMutation(
    useTRPC().waits.answer.mutationOptions({
      onSuccess: () => drafts.delete(wait.id),
      onSettled: props.onAnswered,
    }),
  );
  const detail = detailOf(wait);
  const fields = detail.fields ?? [];
  const [values, setDraft] = useState<Record<string, unknown>>(
    () => drafts.get(wait.id) ?? initialOf(fields),
  );
  const setValues = (next: (old: Record<string, unknown>) => Record<string, unknown>) =>
    setDraft((old) => {
      const value = next(old);
      drafts.set(wait.id, value);
      return value;
    });
  const location = (
    answer.error?.shape?.data as { location?: { path?: string } | null } | undefined
  )?.location;
  // Empty fields are left out: the server's form applies its defaults to them.
  const content = () =>
    Object.fromEntries(
      Object.entries(values).filter(([, v]) => v !== "" && !(Array.isArray(v) && v.length === 0)),
    );
  return (
    <WaitCard wait={wait}>
      <p className="small">
        <WaitFrom wait={wait} show={showRun} />
        The connector <code>{detail.connector ?? "?"}</code> asks this while its tool{" "}
        <code>{detail.tool ?? "?"}</code> runs
        {detail.state ? (
          <>
            {" "}
            (step <strong>{detail.state}</strong>)
          </>
        ) : null}
        . Waiting since <LocalTime value={wait.createdAt} />
        {wait.expiresAt ? (
          <>
            ; expires <LocalTime value={wait.expiresAt} /> (then cancelled)
          </>
        ) : null}
        .
      </p>
      <blockquote data-testid="elicitation-message">{detail.message}</blockquote>
      {wait.mayAnswer ? (
        <form
          className="elicitation-form"
          onSubmit={(e) => {
            e.preventDefault();
            answer.mutate({ id: wait.id, action: "accept", content: content() });
          }}
        >
          {fields.map((field) => (
            <div key={field.name} className="field">
              <FieldInput
                field={field}
                value={values[field.name]}
                onChange={(v) => setValues((old) => ({ ...old, [field.name]: v }))}
              />
              {field.description ? <p className="muted small">{field.description}</p> : null}
              {location?.path === `content.${field.name}` ? (
                <p className="error small" role="alert">
                  {answer.error?.message}
                </p>
              ) : null}
            </div>
          ))}
          <div className="wait-actions">
            <button type="submit" className="primary" disabled={answer.isPending}>
              Submit
            </button>
            {(["decline", "cancel"] as const).map((action) => (
              <button
                key={action}
                type="button"
                className={action === "cancel" ? "link" : undefined}
                disabled={answer.isPending}
                onClick={() => answer.mutate({ id: wait.id, action })}
              >
                {action === "decline" ? "Decline" : "Cancel"}
              </button>
            ))}
          </div>
        </form>
      ) : (
        <WaitWho wait={wait} />
      )}
      {answer.isError && !location?.path?.startsWith("content.") ? (
        <p className="error" role="alert">
          {answer.error.message}
        </p>
      ) : null}
    </WaitCard>
  );
}
