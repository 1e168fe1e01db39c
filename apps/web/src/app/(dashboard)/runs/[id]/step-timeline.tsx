/**
 * A run's step attempts on a time axis: each attempt a bar from its start to its end (now,
 * while it runs), coloured by status. Attempts that overlap (parallel branches) sit side by
 * side in lanes; a retry is its own bar, labelled with its attempt number.
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

const seconds = (ms: number) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);

export function StepTimeline({ steps, now }: { steps: TimelineStep[]; now: number }) {
  const timed = steps
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
                  className={`${styles.bar} ${styles[t.step.status] ?? ""}`}
                  style={{
                    left: `${((t.start - t0) / span) * 100}%`,
                    width: `${((t.end - t.start) / span) * 100}%`,
                  }}
                  title={`${t.step.stateName} · attempt ${t.step.attempt} · ${t.step.status} · ${seconds(t.end - t.start)}`}
                  data-attempt={`${t.step.stateName}#${t.step.attempt}`}
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
