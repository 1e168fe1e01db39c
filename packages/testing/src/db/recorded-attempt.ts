/**
 * Rows of a finished run and its recorded agent attempt (the request it started with and
 * its proxy tool calls in order), as a worker leaves them, for tests of replay and compare
 * that do not run an agent.
 */
import type { Db } from "@switchyard/db";

export type SeededCall = {
  tool: string;
  arguments: unknown;
  result: unknown;
  isError?: boolean;
  replay?: "recorded" | "live" | "unmatched";
};

/** Three calls of an agent that reads a file, edits it and runs the tests. */
export const EDITING_CALLS: readonly SeededCall[] = [
  { tool: "Read", arguments: { path: "src/a.ts" }, result: { text: "const a = 1;" } },
  { tool: "Edit", arguments: { path: "src/a.ts", old: "1", new: "2" }, result: { ok: true } },
  { tool: "Bash", arguments: { command: "npm test" }, result: { exit: 0 } },
];

/** A finished run of the version (succeeded unless told), optionally a replay of an attempt. */
export const finishedRun = async (
  db: Db,
  input: {
    teamId: string;
    workflowId: string;
    workflowVersionId: string;
    lane?: string;
    replayOfId?: string;
    status?: "succeeded" | "failed";
  },
) =>
  db.run.create({
    data: {
      teamId: input.teamId,
      workflowId: input.workflowId,
      workflowVersionId: input.workflowVersionId,
      lane: input.lane ?? "default",
      trigger: input.replayOfId ? "replay" : "api",
      status: input.status ?? "succeeded",
      replayOfId: input.replayOfId,
      startedAt: new Date(Date.now() - 60_000),
      finishedAt: new Date(),
    },
  });

/** A finished agent attempt of the run with its request recorded (unless `agentRequest` is null) and its calls. */
export const recordedAttempt = async (
  db: Db,
  input: {
    teamId: string;
    runId: string;
    stateName?: string;
    output: string;
    calls: readonly SeededCall[];
    status?: "succeeded" | "failed" | "running";
    model?: string;
    provider?: string;
    agentVersion?: string;
    inputTokens?: number;
    outputTokens?: number;
    costUsd?: number;
    durationMs?: number;
    attempt?: number;
    agentRequest?: null;
    /** null: no workspace snapshot was kept for it. */
    snapshot?: null;
  },
) => {
  const stateName = input.stateName ?? "fix";
  const provider = input.provider ?? "claude";
  const finishedAt = new Date();
  const startedAt = new Date(finishedAt.getTime() - (input.durationMs ?? 5_000));
  const snapshot =
    input.snapshot === null
      ? undefined
      : await db.workspaceSnapshot.create({
          data: { teamId: input.teamId, runId: input.runId, files: [], totalBytes: 0 },
        });
  const step = await db.stepRun.create({
    data: {
      ...(snapshot ? { snapshotId: snapshot.id } : {}),
      teamId: input.teamId,
      runId: input.runId,
      stateName,
      stepType: "agent",
      attempt: input.attempt ?? 1,
      path: { workflow: "w", key: stateName, loop: [], calls: [] },
      status: input.status ?? "succeeded",
      output: input.output,
      provider,
      agentVersion: input.agentVersion ?? "2.1.332",
      inputTokens: input.inputTokens ?? 1000,
      outputTokens: input.outputTokens ?? 200,
      costUsd: input.costUsd ?? 0.01,
      ...(input.agentRequest === null
        ? {}
        : {
            agentRequest: {
              v: 1,
              stateName,
              provider,
              prompt: "Fix the failing test",
              options: input.model ? { model: input.model } : {},
            },
          }),
      startedAt,
      finishedAt: input.status === "running" ? null : finishedAt,
    },
  });
  await db.toolCall.createMany({
    data: input.calls.map((call, i) => ({
      teamId: input.teamId,
      runId: input.runId,
      stepRunId: step.id,
      toolName: call.tool,
      source: "builtin",
      fidelity: "proxy" as const,
      arguments: call.arguments as object,
      result: call.result as object,
      isError: call.isError ?? false,
      startedAt: new Date(startedAt.getTime() + i * 100),
      durationMs: 5,
      replay: call.replay ?? null,
    })),
  });
  return step;
};
