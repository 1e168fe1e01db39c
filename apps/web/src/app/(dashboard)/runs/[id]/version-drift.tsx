/**
 * The agent CLIs this run's worker had installed at another version than
 * scripts/agents.json pins (`agent.version_drift` events): the steps ran all the same, and
 * a reader comparing runs should know which version did.
 */
import styles from "../runs.module.css";
import type { RunEvent } from "./use-run-events";

type Drift = { cli: string; pinned: string; installed: string };

const driftOf = (e: RunEvent): Drift | undefined => {
  if (e.type !== "agent.version_drift") return undefined;
  const p = e.payload as Partial<Drift> | null;
  return typeof p?.cli === "string" &&
    typeof p.pinned === "string" &&
    typeof p.installed === "string"
    ? { cli: p.cli, pinned: p.pinned, installed: p.installed }
    : undefined;
};

export function VersionDrift({ events }: { events: RunEvent[] }) {
  const drifts = events.flatMap((e) => driftOf(e) ?? []);
  if (drifts.length === 0) return null;
  return (
    <>
      {drifts.map((d) => (
        <p key={`${d.cli}@${d.installed}`} className={styles.notice} data-testid="version-drift">
          {d.cli} {d.installed} ran this run&apos;s steps: the worker&apos;s install is not the
          pinned {d.pinned} (scripts/agents.json).
        </p>
      ))}
    </>
  );
}
