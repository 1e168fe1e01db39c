/**
 * What an agent step did so far, for runs.stepActivity and the REST route: its tool calls
 * and the events the run page shows (text, retries, usage, the answer, errors), the latest
 * ones only when there are many. A step of a run of another team is not found.
 */
import type { z } from "zod";
import { AppError } from "@switchyard/core/errors";
import {
  findStepRunOfRun,
  listLatestStepAgentEvents,
  listLatestStepToolCalls,
  type Db,
} from "@switchyard/db";
import { agentActivityEvent, type stepActivityResponse } from "../contract/runs.types";

/** How many of the latest tool calls and events one answer lists. */
export const STEP_ACTIVITY_LIMITS = { toolCalls: 500, events: 500 } as const;

const EVENT_TYPES = agentActivityEvent.options.map((option) => option.shape.type.value);

export const readStepActivity = async (
  db: Db,
  input: { teamId: string; runId: string; stepRunId: string; toolCallLimit?: number },
): Promise<z.input<typeof stepActivityResponse>> => {
  const step = await findStepRunOfRun(db, input.teamId, input.runId, input.stepRunId);
  if (!step) throw new AppError("NOT_FOUND", "step not found");
  const [calls, events] = await Promise.all([
    listLatestStepToolCalls(
      db,
      input.teamId,
      step.id,
      input.toolCallLimit ?? STEP_ACTIVITY_LIMITS.toolCalls,
    ),
    listLatestStepAgentEvents(db, input.teamId, input.runId, step.id, {
      types: EVENT_TYPES,
      limit: STEP_ACTIVITY_LIMITS.events,
    }),
  ]);
  return {
    stepRunId: step.id,
    status: step.status,
    toolCalls: calls.rows.map((c) => ({
      id: c.id,
      toolName: c.toolName,
      source: c.source,
      fidelity: c.fidelity,
      arguments: c.arguments,
      result: c.result,
      isError: c.isError,
      errorType: c.errorType,
      startedAt: c.startedAt,
      durationMs: c.durationMs,
    })),
    toolCallsTruncated: calls.truncated,
    // An event this version cannot read (from a newer worker, say) is left out, not an error.
    events: events.rows.flatMap((row) => {
      const event = agentActivityEvent.safeParse(
        (row.payload as { event?: unknown } | null)?.event,
      );
      return event.success ? [{ seq: row.seq, at: row.createdAt, event: event.data }] : [];
    }),
    eventsTruncated: events.truncated,
  };
};
