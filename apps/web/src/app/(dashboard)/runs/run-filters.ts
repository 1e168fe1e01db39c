/**
 * The run list's filters as they sit in the URL's query (so a filtered list can be shared
 * and survives a reload), read into runs.list's input and written back.
 */
import { runStatus } from "~/server/contract/runs.types";

export const RUN_STATUSES = runStatus.options;
/** A status tab's label where the status's name alone would mislead. */
export const STATUS_LABELS: Partial<Record<(typeof RUN_STATUSES)[number], string>> = {
  waiting: "Waiting for a person",
};
export const RUN_TRIGGERS = [
  "dashboard",
  "api",
  "cli",
  "call_workflow",
  "schedule",
  "webhook",
  "replay",
] as const;

type Status = (typeof RUN_STATUSES)[number];
type Trigger = (typeof RUN_TRIGGERS)[number];

export type RunFilters = {
  status?: Status;
  workflowId?: string;
  lane?: string;
  trigger?: Trigger;
  startedBy?: string;
  /** datetime-local values (the viewer's time zone) */
  from?: string;
  to?: string;
};

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | undefined =>
  values.find((v) => v === value);

export const readFilters = (params: URLSearchParams): RunFilters => ({
  status: oneOf(RUN_STATUSES, params.get("status")),
  workflowId: params.get("workflow") || undefined,
  lane: params.get("lane") || undefined,
  trigger: oneOf(RUN_TRIGGERS, params.get("trigger")),
  startedBy: params.get("startedBy") || undefined,
  from: params.get("from") || undefined,
  to: params.get("to") || undefined,
});

export const filtersQuery = (filters: RunFilters) => {
  const params = new URLSearchParams();
  if (filters.status) params.set("status", filters.status);
  if (filters.workflowId) params.set("workflow", filters.workflowId);
  if (filters.lane) params.set("lane", filters.lane);
  if (filters.trigger) params.set("trigger", filters.trigger);
  if (filters.startedBy) params.set("startedBy", filters.startedBy);
  if (filters.from) params.set("from", filters.from);
  if (filters.to) params.set("to", filters.to);
  const text = params.toString();
  return text ? `?${text}` : "";
};

/** A datetime-local value (no zone: the viewer's) as an ISO instant; undefined when empty or invalid. */
const instant = (local: string | undefined) => {
  if (!local) return undefined;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
};

/** runs.list's input for the filters (status aside when `withStatus` is false). */
export const listInput = (filters: RunFilters) => ({
  ...(filters.status ? { status: [filters.status] } : {}),
  ...(filters.workflowId ? { workflowId: filters.workflowId } : {}),
  ...(filters.lane ? { lane: filters.lane } : {}),
  ...(filters.trigger ? { trigger: [filters.trigger] } : {}),
  ...(filters.startedBy ? { startedBy: filters.startedBy } : {}),
  ...(instant(filters.from) ? { from: instant(filters.from) } : {}),
  ...(instant(filters.to) ? { to: instant(filters.to) } : {}),
});
