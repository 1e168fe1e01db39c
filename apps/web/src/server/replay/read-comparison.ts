/**
 * Reads two attempts and compares them (core's compareAttempts): the two asked for, or a
 * replay's attempt and the attempt its run replays.
 */
import { AppError } from "@switchyard/core/errors";
import { compareAttempts, type ComparedAttempt } from "@switchyard/core/replay/compare";
import { getAttemptToCompare, type Db } from "@switchyard/db";

type StoredAttempt = NonNullable<Awaited<ReturnType<typeof getAttemptToCompare>>>;

const modelOf = (request: unknown): string | null => {
  const model = (request as { options?: { model?: unknown } } | null)?.options?.model;
  return typeof model === "string" ? model : null;
};

const comparedOf = (step: StoredAttempt): ComparedAttempt => ({
  id: step.id,
  runId: step.runId,
  stateName: step.stateName,
  status: step.status,
  output: step.output,
  provider: step.provider,
  agentVersion: step.agentVersion,
  model: modelOf(step.agentRequest),
  inputTokens: step.inputTokens,
  outputTokens: step.outputTokens,
  costUsd: step.costUsd,
  durationMs:
    step.startedAt && step.finishedAt ? step.finishedAt.getTime() - step.startedAt.getTime() : null,
  toolCalls: step.toolCalls.map((call) => ({
    tool: call.toolName,
    arguments: call.arguments,
    result: call.result,
    isError: call.isError,
    replay: call.replay,
  })),
});

const attempt = async (db: Db, teamId: string, stepRunId: string, field: "a" | "b") => {
  const step = await getAttemptToCompare(db, teamId, stepRunId);
  if (!step)
    throw new AppError("NOT_FOUND", `${field}: step attempt not found`, {
      location: { path: field },
    });
  return step;
};

/** Both attempts read and compared; `a` unset: the attempt b's replay run replays. */
export const readComparison = async (db: Db, teamId: string, query: { a?: string; b: string }) => {
  const b = await attempt(db, teamId, query.b, "b");
  const sourceId = query.a ?? b.run.replayOfId;
  if (!sourceId)
    throw new AppError(
      "USER.REPLAY.NOT_A_REPLAY",
      "b is not an attempt of a replay run: name the attempt to compare it with in a",
      { location: { path: "a" } },
    );
  const a = await attempt(db, teamId, sourceId, "a");
  return compareAttempts(comparedOf(a), comparedOf(b));
};

/** Compares a replay run's attempt with its source, once both are read (the suite table). */
export const compareStored = (a: StoredAttempt, b: StoredAttempt) =>
  compareAttempts(comparedOf(a), comparedOf(b));
