/**
 * A team's limit on runs running at once: a job whose run cannot start because its team is
 * at the limit goes back to the queue, delayed, instead of holding a worker slot while it
 * waits. How long: longer the longer the run has waited (a team with a long queue need not
 * be asked often), within bounds, with jitter so the waiting jobs of one team spread out.
 */

/** What executing a run answers when its team is at its limit: the run stays queued. */
export const TEAM_LIMITED = "limited";

/**
 * What executing a run answers when it was about to park on a person's answer that came
 * meanwhile: its job runs it again at once, from its checkpoint.
 */
export const RESUME_NOW = "resume now";

const MIN_DELAY_MS = 250;
const MAX_DELAY_MS = 5_000;

/** The delay before a waiting run's job is tried again, from how long it has waited. */
export const teamLimitDelayMs = (waitedMs: number, random: () => number = Math.random) => {
  const base = Math.min(MAX_DELAY_MS, Math.max(MIN_DELAY_MS, waitedMs / 16));
  return Math.round(base * (0.5 + random()));
};
