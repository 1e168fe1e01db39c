/**
 * Cancelling a run that is executing on some worker: the request is published on a Redis
 * channel every worker listens to, and the worker running it aborts the job's signal.
 */
export const runCancelChannel = (prefix: string) => `${prefix}:run-cancel`;

/** The abort reason a worker gives a run whose job lock it lost: stop, but do not end the run. */
export const LOCK_LOST = "lock lost";

/** Workers publish a run's id here whenever something of the run was recorded (live views). */
export const runUpdatesChannel = (prefix: string) => `${prefix}:run-updates`;

/**
 * The web publishes a wait's id here when the wait is answered, so the worker holding a call
 * on it reads it at once instead of at its next poll. Only the id: the worker reads the wait
 * again from Postgres, scoped to its team, before it acts.
 */
export const waitAnsweredChannel = (prefix: string) => `${prefix}:wait-answered`;
