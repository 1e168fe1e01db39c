/**
 * The types of a run's stored events, which are also their names on a run's event stream
 * (`event: run.started`). One list, so the worker writes no type a client does not know
 * (the worker's writer takes only these) and the run page listens for each by name.
 */
export const RUN_EVENT_TYPES = [
  "run.started",
  "run.resumed",
  "run.waiting",
  "state.started",
  "state.finished",
  "step.retry",
  "step.output",
  "hook.finished",
  "agent.event",
  "agent.version_drift",
  "step.spend",
  "budget.warning",
  "snapshot.not_kept",
  "notify.desktop",
  "log",
  "run.finished",
] as const;

export type RunEventType = (typeof RUN_EVENT_TYPES)[number];
