/**
 * A run's step attempts on a time axis: each attempt a bar from its start to its end (now,
 * while it runs), coloured by status. Attempts that overlap (parallel branches) sit side by
 * side in lanes; a retry is its own bar, labelled with its attempt number. Each wait for a
 * person is a bar of its own, from when it opened to its answer (now, while it is open).
 */
import styles from "../runs.module.css";
import { laneOf } from "./timeline-layout";

export type TimelineStep = {
  id: string;
  stateName: string;
  attempt: number;
  status: string;
  startedAt: Date | null;
  finishedAt: Date | null;
};

export type TimelineWait = {
  id: string;
  question: string;
  status: string;
  createdAt: Date;
  answeredAt: Date | null;
};

const seconds = (ms: number) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);

/** A wait as a bar: its label and status in the step's fields. */
const waitBar = (w: TimelineWait): TimelineStep & { wait: true } => ({
  id: `wait-${w.id}`,
  stateName: `waiting: ${w.question}`,
  attempt: 1,
  status: w.status === "open" ? "waiting" : w.status,
  startedAt: w.createdAt,
  finishedAt: w.answeredAt,
  wait: true,
});

export function StepTimeline({
  steps,
  waits = [],
  now,
}: {
  steps: TimelineStep[];
  waits?: TimelineWait[];
  now: number;
}) {
  const timed = [...steps, ...waits.map(waitBar)]
    .filter((s) => s.startedAt)
    .map((s) => ({
      step: s,
      start: s.startedAt!.getTime(),
      end: Math.max(s.finishedAt?.getTime() ?? now, s.startedAt!.getTime() + 1),
    }))
    .sort((a, b) => a.start - b.start);
  if (timed.length === 0) return <p className="muted">No step has started yet.</p>;
  const t0 = timed[0]!.start;
  const span = Math.max(...timed.map((t) => t.end)) - t0 || 1;
  const lanes = laneOf(timed);
  const laneCount = Math.max(...lanes) + 1;
  return (
    <figure aria-label="Timeline of step attempts" data-testid="step-timeline">
      <div className={styles.lanes}>
        {Array.from({ length: laneCount }, (_, lane) => (
          <div key={lane} className={styles.lane}>
            {timed.map((t, i) =>
              lanes[i] === lane ? (
                <div
                  key={t.step.id}
                  className={`${styles.bar} ${styles[t.step.status] ?? ""} ${"wait" in t.step ? styles.waitBar : ""}`}
                  style={{
                    left: `${((t.start - t0) / span) * 100}%`,
                    width: `${((t.end - t.start) / span) * 100}%`,
                  }}
                  title={`${t.step.stateName} · attempt ${t.step.attempt} · ${t.step.status} · ${seconds(t.end - t.start)}`}
                  {...("wait" in t.step
                    ? { "data-wait-bar": t.step.status }
                    : { "data-attempt": `${t.step.stateName}#${t.step.attempt}` })}
                >
                  {t.step.stateName}
                  {t.step.attempt > 1 ? ` (attempt ${t.step.attempt})` : ""}
                </div>
              ) : null,
            )}
          </div>
        ))}
        <div className={styles.axis} aria-hidden="true">
          <span>0 s</span>
          <span>{seconds(Math.round(span / 2))}</span>
          <span>{seconds(span)}</span>
        </div>
      </div>
      <figcaption className="visually-hidden">
        {timed
          .map(
            (t) =>
              `${t.step.stateName} attempt ${t.step.attempt}: ${t.step.status}, ${seconds(t.end - t.start)}`,
          )
          .join("; ")}
      </figcaption>
    </figure>
  );
}
