"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";
import { SecretOnce } from "~/components/secret-once";

const EVENTS = [
  "run.succeeded",
  "run.failed",
  "run.cancelled",
  "wait.opened",
  "budget.warning",
] as const;
type Event = (typeof EVENTS)[number];
/** What an event means, beside its name. */
const EVENT_HINT: Partial<Record<Event, string>> = {
  "wait.opened": "a run waits for a person's approval",
  "budget.warning": "a step's spend passed 80% of a budget limit",
};

function EventPicker(props: {
  legend: string;
  chosen: Event[];
  onChange: (chosen: Event[]) => void;
}) {
  return (
    <fieldset>
      <legend className="small muted">{props.legend}</legend>
      {EVENTS.map((event) => (
        <label key={event} className="inline">
          <input
            type="checkbox"
            checked={props.chosen.includes(event)}
            onChange={(e) =>
              props.onChange(
                e.target.checked
                  ? [...props.chosen, event]
                  : props.chosen.filter((c) => c !== event),
              )
            }
          />{" "}
          {event}
          {EVENT_HINT[event] ? (
            <span className="small muted"> ({EVENT_HINT[event]})</span>
          ) : null}{" "}
        </label>
      ))}
    </fieldset>
  );
}

export function NotificationsEditor() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const endpoints = useQuery(trpc.notifications.endpoints.queryOptions());
  const deliveries = useQuery({
    ...trpc.notifications.deliveries.queryOptions({ limit: 50 }),
    refetchInterval: 3_000,
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.notifications.endpoints.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.notifications.deliveries.queryKey() });
  };
  const create = useMutation(trpc.notifications.create.mutationOptions({ onSuccess: refresh }));
  const update = useMutation(trpc.notifications.update.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.notifications.delete.mutationOptions({ onSuccess: refresh }));
  const test = useMutation(trpc.notifications.sendTest.mutationOptions({ onSuccess: refresh }));
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<Event[]>(["run.failed"]);
  const [secret, setSecret] = useState<string | null>(null);
  const failed = create.error ?? update.error ?? remove.error ?? test.error;

  return (
    <>
      <form
        className="card"
        aria-label="New endpoint"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate(
            { url, events },
            {
              onSuccess: (made) => {
                setSecret(made.secret);
                setUrl("");
              },
            },
          );
        }}
      >
        <label>
          Endpoint URL
          <input
            type="url"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="https://hooks.example.com/switchyard"
            required
            aria-describedby="url-help"
          />
        </label>
        <p id="url-help" className="small muted">
          https, or plain http to localhost only.
        </p>
        <EventPicker legend="Events" chosen={events} onChange={setEvents} />
        <button
          type="submit"
          className="primary"
          disabled={create.isPending || events.length === 0}
        >
          Add endpoint
        </button>
      </form>
      {secret ? (
        <SecretOnce secret={secret} testId="endpoint-secret" onDone={() => setSecret(null)}>
          Copy this signing secret now; it will not be shown again:
        </SecretOnce>
      ) : null}
      {failed ? (
        <p className="error" role="alert">
          {failed.message}
        </p>
      ) : null}

      <h2>Endpoints</h2>
      {endpoints.isPending ? <p className="muted">Loading endpoints…</p> : null}
      {endpoints.error ? (
        <p className="error" role="alert">
          Could not load endpoints: {endpoints.error.message}. Reload the page to try again.
        </p>
      ) : null}
      {endpoints.data?.endpoints.length === 0 ? (
        <p className="muted">No endpoints yet: nobody is told when runs end.</p>
      ) : null}
      <ul className="card-list">
        {(endpoints.data?.endpoints ?? []).map((ep) => (
          <li key={ep.id} className="card wrap-anywhere" data-endpoint={ep.url}>
            <p>
              <code>{ep.url}</code> {ep.enabled ? null : <span className="badge">disabled</span>}
            </p>
            <EventPicker
              legend={`Events sent to ${ep.url}`}
              chosen={ep.events.filter((e): e is Event =>
                (EVENTS as readonly string[]).includes(e),
              )}
              onChange={(chosen) => {
                if (chosen.length > 0) update.mutate({ id: ep.id, events: chosen });
              }}
            />
            <p>
              <button
                type="button"
                className="link"
                onClick={() => update.mutate({ id: ep.id, enabled: !ep.enabled })}
                disabled={update.isPending}
              >
                {ep.enabled ? "Disable" : "Enable"}
              </button>{" "}
              <button
                type="button"
                className="link"
                onClick={() => test.mutate({ id: ep.id })}
                disabled={test.isPending}
              >
                Send test
              </button>{" "}
              <button
                type="button"
                className="link"
                onClick={() => {
                  if (window.confirm(`Remove ${ep.url}?`)) remove.mutate({ id: ep.id });
                }}
                disabled={remove.isPending}
              >
                Remove
              </button>
            </p>
          </li>
        ))}
      </ul>

      <h2>Recent deliveries</h2>
      {deliveries.isPending ? <p className="muted">Loading deliveries…</p> : null}
      {deliveries.data?.deliveries.length === 0 ? <p className="muted">Nothing sent yet.</p> : null}
      {deliveries.data && deliveries.data.deliveries.length > 0 ? (
        <div className="table-scroll">
          <table className="table">
            <thead>
              <tr>
                <th>Event</th>
                <th>Run</th>
                <th>Endpoint</th>
                <th>Status</th>
                <th>Attempts</th>
                <th>Sent</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.deliveries.map((d) => (
                <tr key={d.id} data-delivery={d.id} data-status={d.status}>
                  <td>{d.event}</td>
                  <td>
                    {d.runId.startsWith("test_") ? (
                      <span className="muted">test</span>
                    ) : (
                      <a href={`/runs/${d.runId}`}>{d.runId.slice(0, 10)}…</a>
                    )}
                  </td>
                  <td className="wrap-anywhere">{d.url}</td>
                  <td>
                    <span className="badge">{d.status}</span>
                    {d.lastStatusCode ? (
                      <span className="small muted"> HTTP {d.lastStatusCode}</span>
                    ) : null}
                    {d.lastError && d.status !== "delivered" ? (
                      <div className="small error">{d.lastError}</div>
                    ) : null}
                  </td>
                  <td>{d.attempts}</td>
                  <td>{new Date(d.deliveredAt ?? d.createdAt).toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}
