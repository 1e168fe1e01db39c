"use client";
/**
 * The run's stored events (as the page's event stream delivered them), newest last, a page
 * at a time; a running step's output chunks are hidden unless asked for, since the steps
 * above show that output whole.
 */
import { useState } from "react";
import { LocalTime } from "~/components/local-time";
import styles from "../runs.module.css";
import type { RunEvent } from "./use-run-events";

const PAGE = 100;

const summary = (payload: unknown) => {
  const text = JSON.stringify(payload);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
};

export function EventList({ events }: { events: RunEvent[] }) {
  const [withOutput, setWithOutput] = useState(false);
  const [shown, setShown] = useState(PAGE);
  const list = withOutput ? events : events.filter((e) => e.type !== "step.output");
  const visible = list.slice(Math.max(0, list.length - shown));
  return (
    <div className={styles.events}>
      <label className="small inline">
        <input
          type="checkbox"
          checked={withOutput}
          onChange={(e) => setWithOutput(e.target.checked)}
        />{" "}
        Show output chunks
      </label>
      {list.length === 0 ? (
        <p className="muted">No events yet.</p>
      ) : (
        <>
          {list.length > visible.length ? (
            <button type="button" onClick={() => setShown(shown + PAGE)}>
              Show {Math.min(PAGE, list.length - visible.length)} earlier events
            </button>
          ) : null}
          <div className="table-scroll">
            <table className="table" data-testid="run-events">
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">Time</th>
                  <th scope="col">Type</th>
                  <th scope="col">Details</th>
                </tr>
              </thead>
              <tbody>
                {visible.map((e) => (
                  <tr key={e.seq}>
                    <td>{e.seq}</td>
                    <td>
                      <LocalTime value={e.at} />
                    </td>
                    <td>
                      <code>{e.type}</code>
                    </td>
                    <td className={styles.eventPayload}>{summary(e.payload)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </div>
  );
}
