/**
 * A fresh seeded database holding one run with a running agent attempt row, as the worker
 * leaves them while an agent step runs: what the governance benches need for the rows a held
 * call's wait and a budget's ledger entries point at.
 */
import type { AgentRequest } from "@switchyard/core/workflow";
import { createRun } from "@switchyard/db";
import { openSeededDatabase, type SeededDatabase } from "../test/helpers/seeded-database";
import { saveAgentWorkflow } from "../test/helpers/waiting-run";

export type AttemptRow = SeededDatabase & {
  workflowId: string;
  workflowName: string;
  runId: string;
  stepRunId: string;
};

export const openAttemptRow = async (name: string): Promise<AttemptRow> => {
  const seeded = await openSeededDatabase();
  const { db, teamId } = seeded;
  try {
    const saved = await saveAgentWorkflow(db, teamId, name);
    const pinned = { teamId, workflowId: saved.workflowId, workflowVersionId: saved.id };
    const run = await createRun(db, { ...pinned, lane: "default", trigger: "api" });
    await db.run.update({
      where: { id: run.id },
      data: { status: "running", startedAt: new Date(), workerId: `bench-${name}` },
    });
    const step = await db.stepRun.create({
      data: {
        teamId,
        runId: run.id,
        stateName: "fix",
        attempt: 1,
        status: "running",
        stepType: "agent",
        provider: "claude",
        startedAt: new Date(),
      },
    });
    return {
      ...seeded,
      workflowId: saved.workflowId,
      workflowName: name,
      runId: run.id,
      stepRunId: step.id,
    };
  } catch (error) {
    await seeded.close();
    throw error;
  }
};

/** The attempt as the engine asks the worker to run it. */
export const attemptRequest = (row: AttemptRow): AgentRequest => ({
  attempt: 1,
  path: { workflow: row.workflowName, key: "fix", loop: [], calls: [] },
  stateName: "fix",
  attemptId: row.stepRunId,
  provider: "claude",
  prompt: "fix it",
  options: {},
  signal: new AbortController().signal,
});
