/**
 * The run lifecycle: which status a run may move to from which. A queued run is claimed by
 * a worker (running) or cancelled before it starts; a running run ends succeeded, failed or
 * cancelled, or parks on a person's answer (waiting) until a worker claims it again; a run
 * written waiting for its inputs is queued when they come. An ended run never changes again. The database's run-lifecycle repository
 * builds its compare-and-set conditions from this table, so no writer can step outside it.
 */
export const RUN_STATUSES = [
  "queued",
  "running",
  "waiting",
  "succeeded",
  "failed",
  "cancelled",
] as const;
type RunStatusName = (typeof RUN_STATUSES)[number];

const RUN_TRANSITIONS: Readonly<Record<RunStatusName, readonly RunStatusName[]>> = {
  queued: ["running", "cancelled"],
  // A running run parks on a person's answer (waiting) and holds no worker until it comes.
  running: ["waiting", "succeeded", "failed", "cancelled"],
  // The answer (or the expiry) lets a worker claim it again; or it is cancelled where it waits.
  // A run that waited for its inputs before it ever started is queued once they come, so it
  // takes its turn under the team's limit of running runs as any start does.
  waiting: ["running", "queued", "cancelled"],
  succeeded: [],
  failed: [],
  cancelled: [],
};

export const canTransition = (from: RunStatusName, to: RunStatusName): boolean =>
  RUN_TRANSITIONS[from].includes(to);

/** The statuses a run may be in for `to` to be allowed; `among` narrows them (each must be allowed). */
export const statusesBefore = (
  to: RunStatusName,
  among: readonly RunStatusName[] = RUN_STATUSES,
): RunStatusName[] => {
  const refused = among.filter((from) => !canTransition(from, to));
  if (among !== RUN_STATUSES && refused.length > 0) {
    throw new Error(`a run may not go from ${refused.join(", ")} to ${to}`);
  }
  return among.filter((from) => canTransition(from, to));
};
