"use client";
/**
 * A workflow's triggers: schedules (cron in a time zone, with the next fire times) and
 * webhooks (the URL to POST to, signed with a secret shown once), each with the member its
 * runs start as. Everyone in the team sees them; members who may start runs in the
 * workflow's lane create them; the member a trigger runs as, or an admin, pauses, resumes,
 * rotates and deletes it (only the actions the viewer may take are offered).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import { useTRPC } from "~/trpc/react";
import { SecretOnce } from "~/components/secret-once";

type Kind = "schedule" | "webhook";

const parseObject = (text: string, what: string): Record<string, unknown> => {
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${what} must be a JSON object, for example {"branch": "main"}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new Error(`${what} must be a JSON object`);
  return value as Record<string, unknown>;
};

const when = (d: Date | string | null) => (d ? new Date(d).toLocaleString() : "never");

function CreateTrigger(props: { workflowId: string; onCreated: (secret: string | null) => void }) {
  const trpc = useTRPC();
  const create = useMutation(trpc.triggers.create.mutationOptions());
  const [kind, setKind] = useState<Kind>("schedule");
  const [name, setName] = useState("");
  const [cron, setCron] = useState("0 9 * * 1-5");
  const [timezone, setTimezone] = useState("UTC");
  const [inputs, setInputs] = useState("");
  const [inputMap, setInputMap] = useState("");
  const [formError, setFormError] = useState<string | null>(null);
  const error = formError ?? create.error?.message ?? null;

  return (
    <form
      className="card"
      aria-label="New trigger"
      onSubmit={(e) => {
        e.preventDefault();
        setFormError(null);
        try {
          const values = parseObject(inputs, "Input values");
          const map =
            kind === "webhook"
              ? (parseObject(inputMap, "Input map") as Record<string, string>)
              : undefined;
          create.mutate(
            {
              workflowId: props.workflowId,
              kind,
              name,
              inputs: values,
              ...(kind === "schedule" ? { cron, timezone } : { inputMap: map }),
            },
            {
              onSuccess: (created) => {
                setName("");
                props.onCreated(created.secret);
              },
            },
          );
        } catch (err) {
          setFormError(err instanceof Error ? err.message : String(err));
        }
      }}
    >
      <h3>New trigger</h3>
      <fieldset>
        <legend className="small muted">Kind</legend>
        <label className="inline">
          <input
            type="radio"
            name="trigger-kind"
            value="schedule"
            checked={kind === "schedule"}
            onChange={() => setKind("schedule")}
          />{" "}
          Schedule
        </label>{" "}
        <label className="inline">
          <input
            type="radio"
            name="trigger-kind"
            value="webhook"
            checked={kind === "webhook"}
            onChange={() => setKind("webhook")}
          />{" "}
          Webhook
        </label>
      </fieldset>
      <label>
        Name
        <input
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder={kind === "schedule" ? "weekday mornings" : "on push"}
          maxLength={128}
        />
      </label>
      {kind === "schedule" ? (
        <>
          <label>
            Cron expression
            <input
              value={cron}
              onChange={(e) => setCron(e.target.value)}
              required
              aria-describedby="cron-help"
              spellCheck={false}
            />
          </label>
          <p id="cron-help" className="small muted">
            Five fields (minute hour day-of-month month day-of-week), or six with seconds first.
          </p>
          <label>
            Time zone
            <input
              value={timezone}
              onChange={(e) => setTimezone(e.target.value)}
              required
              placeholder="Europe/Paris"
              spellCheck={false}
            />
          </label>
        </>
      ) : null}
      <label>
        Input values (JSON)
        <textarea
          value={inputs}
          onChange={(e) => setInputs(e.target.value)}
          rows={2}
          placeholder='{"branch": "main"}'
          spellCheck={false}
        />
      </label>
      {kind === "webhook" ? (
        <label>
          Input map (JSON: input name → JSON pointer into the body)
          <textarea
            value={inputMap}
            onChange={(e) => setInputMap(e.target.value)}
            rows={2}
            placeholder='{"branch": "/ref"}'
            spellCheck={false}
          />
        </label>
      ) : null}
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      <button type="submit" className="primary" disabled={create.isPending}>
        {create.isPending
          ? "Creating…"
          : kind === "schedule"
            ? "Create schedule"
            : "Create webhook"}
      </button>
    </form>
  );
}

export function TriggersPanel({ workflowId }: { workflowId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery({
    ...trpc.triggers.list.queryOptions({ workflowId }),
    refetchInterval: 5_000,
  });
  const me = useQuery(trpc.teams.current.queryOptions()).data?.userId;
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: trpc.triggers.list.queryKey({ workflowId }) });
  const pause = useMutation(trpc.triggers.pause.mutationOptions({ onSuccess: refresh }));
  const resume = useMutation(trpc.triggers.resume.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.triggers.delete.mutationOptions({ onSuccess: refresh }));
  const rotate = useMutation(trpc.triggers.rotateSecret.mutationOptions({ onSuccess: refresh }));
  const [secret, setSecret] = useState<string | null>(null);
  const [origin, setOrigin] = useState("");
  useEffect(() => setOrigin(window.location.origin), []);
  const failed = pause.error ?? resume.error ?? remove.error ?? rotate.error;
  const canCreate = list.data?.canCreate ?? false;

  return (
    <section aria-labelledby="triggers-heading" className="triggers-panel">
      <h2 id="triggers-heading">Triggers</h2>
      <p className="muted small">
        Schedules start runs on a cron in a time zone; webhooks start one for each signed POST (see
        docs/triggers.md). Runs start as the member shown on each trigger, with their role and their
        own connector accounts: its creator, or the admin who last changed it.
      </p>
      {secret ? (
        <SecretOnce secret={secret} testId="trigger-secret" onDone={() => setSecret(null)}>
          Copy this signing secret now; it will not be shown again:
        </SecretOnce>
      ) : null}
      {failed ? (
        <p className="error" role="alert">
          {failed.message}
        </p>
      ) : null}
      {list.isPending ? <p className="muted">Loading triggers…</p> : null}
      {list.error ? (
        <p className="error" role="alert">
          Could not load triggers: {list.error.message}. Reload the page to try again.
        </p>
      ) : null}
      {list.data && list.data.triggers.length === 0 ? (
        <p className="muted">
          No triggers yet: this workflow runs only when started by hand or through the API.
        </p>
      ) : null}
      <ul className="card-list">
        {(list.data?.triggers ?? []).map((t) => {
          const url = `${origin}${t.webhookPath ?? ""}`;
          return (
            <li key={t.id} className="card wrap-anywhere" data-trigger={t.id} data-kind={t.kind}>
              <p>
                <span className="badge">{t.kind}</span>{" "}
                <strong>{t.name || (t.kind === "schedule" ? "Schedule" : "Webhook")}</strong>{" "}
                {t.paused ? (
                  <span className="badge" data-paused>
                    paused
                  </span>
                ) : null}
              </p>
              {t.kind === "schedule" ? (
                <>
                  <p>
                    <code>{t.cron}</code> in <code>{t.timezone}</code>
                  </p>
                  {t.nextFires.length > 0 ? (
                    <p className="small muted" data-next-fires>
                      Next: {t.nextFires.map((d) => new Date(d).toLocaleString()).join(" · ")}
                    </p>
                  ) : null}
                </>
              ) : (
                <p>
                  <span className="small muted">POST to</span> <code data-webhook-url>{url}</code>{" "}
                  <button
                    type="button"
                    className="link"
                    onClick={() => void navigator.clipboard?.writeText(url)}
                  >
                    Copy URL
                  </button>
                </p>
              )}
              {Object.keys(t.inputs).length > 0 ? (
                <p className="small">
                  Inputs <code>{JSON.stringify(t.inputs)}</code>
                </p>
              ) : null}
              {Object.keys(t.inputMap).length > 0 ? (
                <p className="small">
                  Input map <code>{JSON.stringify(t.inputMap)}</code>
                </p>
              ) : null}
              <p className="small" data-runs-as>
                Runs as{" "}
                {t.runsAs ? (
                  <strong>{t.runsAs.name}</strong>
                ) : (
                  <span className="error">a user who is gone</span>
                )}
                {t.runsAs && t.runsAs.id === me ? " (you)" : null}
              </p>
              <p className="small muted">
                Last fired {when(t.lastFiredAt)}
                {t.lastRunId ? (
                  <>
                    {" "}
                    · <Link href={`/runs/${t.lastRunId}`}>last run</Link>
                  </>
                ) : null}
              </p>
              {t.lastError ? (
                <p className="error small" data-last-error>
                  Last fire failed: {t.lastError}
                </p>
              ) : null}
              {t.canManage ? (
                <p>
                  {t.paused ? (
                    <button
                      type="button"
                      className="link"
                      onClick={() => resume.mutate({ id: t.id })}
                      disabled={resume.isPending}
                    >
                      Resume
                    </button>
                  ) : (
                    <button
                      type="button"
                      className="link"
                      onClick={() => pause.mutate({ id: t.id })}
                      disabled={pause.isPending}
                    >
                      Pause
                    </button>
                  )}{" "}
                  {t.kind === "webhook" ? (
                    <button
                      type="button"
                      className="link"
                      disabled={rotate.isPending}
                      onClick={() => {
                        const takeOver =
                          t.runsAs?.id !== me ? " The trigger will then run as you." : "";
                        if (
                          window.confirm(
                            `Rotate the signing secret? Senders using the old one will be refused.${takeOver}`,
                          )
                        ) {
                          rotate.mutate({ id: t.id }, { onSuccess: (r) => setSecret(r.secret) });
                        }
                      }}
                    >
                      Rotate secret
                    </button>
                  ) : null}{" "}
                  <button
                    type="button"
                    className="link"
                    disabled={remove.isPending}
                    onClick={() => {
                      if (window.confirm("Delete this trigger?")) remove.mutate({ id: t.id });
                    }}
                  >
                    Delete
                  </button>
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
      {canCreate ? (
        <CreateTrigger
          workflowId={workflowId}
          onCreated={(s) => {
            setSecret(s);
            void refresh();
          }}
        />
      ) : list.data ? (
        <p className="muted small">Your role may not change this workflow&apos;s triggers.</p>
      ) : null}
    </section>
  );
}
