/**
 * A run parked on a held tool call, written straight into the database as the worker would
 * leave it (the run `waiting`, its agent attempt `waiting`, a parked tool_call wait), for
 * tests of what people and automation do with waits.
 */
import type { ToolCallWaitDetail } from "@switchyard/core/governance";
import { createRun, saveWorkflowVersion, type Db, type Role } from "@switchyard/db";

export type WaitOptions = {
  minRole?: Role;
  lane?: string;
  notStarter?: boolean;
  expiresAt?: Date | null;
  onExpiry?: "deny" | "fail" | "default";
  defaultAnswer?: { decision: "approve" | "deny"; message?: string };
  parked?: boolean;
  tool?: string;
  arguments?: Record<string, unknown>;
};

/** A saved workflow of one agent step in `lane` (the lane must exist). */
export const saveAgentWorkflow = async (db: Db, teamId: string, name: string, lane = "default") =>
  saveWorkflowVersion(db, {
    teamId,
    name,
    files: {
      "workflow.yaml": `name: ${name}\nlane: ${lane}\nstates:\n  initial: fix\n  fix:\n    type: agent\n    provider: claude\n    prompt: fix it\n    on_success: done\n  done:\n    type: terminal\n`,
    },
  });

/** A run of the workflow, started by `startedById`, parked on one tool_call wait. */
export const parkedRun = async (
  db: Db,
  input: {
    teamId: string;
    workflowId: string;
    workflowVersionId: string;
    startedById: string;
    lane?: string;
    wait?: WaitOptions;
  },
) => {
  const lane = input.lane ?? "default";
  const run = await createRun(db, {
    teamId: input.teamId,
    workflowId: input.workflowId,
    workflowVersionId: input.workflowVersionId,
    lane,
    trigger: "dashboard",
    inputs: {},
    startedById: input.startedById,
  });
  const startedAt = new Date(Date.now() - 60_000);
  await db.run.update({
    where: { id: run.id },
    data: { status: "waiting", startedAt, createdAt: new Date(Date.now() - 120_000) },
  });
  const step = await db.stepRun.create({
    data: {
      teamId: input.teamId,
      runId: run.id,
      stateName: "fix",
      attempt: 1,
      status: "waiting",
      stepType: "agent",
      provider: "claude",
      startedAt,
    },
  });
  const wait = await addWait(db, {
    teamId: input.teamId,
    runId: run.id,
    stepRunId: step.id,
    lane,
    ...input.wait,
  });
  return { runId: run.id, stepRunId: step.id, waitId: wait.id };
};

/** One more tool_call wait on a run. */
export const addWait = (
  db: Db,
  input: { teamId: string; runId: string; stepRunId?: string; lane: string } & WaitOptions,
) => {
  const tool = input.tool ?? "github_merge_pull_request";
  const args = input.arguments ?? { repo: "acme/api", number: 42 };
  const detail: ToolCallWaitDetail = {
    tool,
    source: "github",
    arguments: args,
    argumentsHash: "a".repeat(64),
    rule: "github_merge_*",
    ruleOrigin: "lane",
    agentText: "The tests pass; merging the pull request now.",
    state: "fix",
    provider: "claude",
  };
  return db.wait.create({
    data: {
      teamId: input.teamId,
      runId: input.runId,
      stepRunId: input.stepRunId ?? null,
      kind: "tool_call",
      question: `Allow ${tool}?`,
      detail: detail as never,
      argumentsHash: detail.argumentsHash,
      minRole: input.minRole ?? "member",
      lane: input.lane,
      notStarter: input.notStarter ?? false,
      expiresAt: input.expiresAt === undefined ? new Date(Date.now() + 3600_000) : input.expiresAt,
      onExpiry: input.onExpiry ?? "deny",
      ...(input.defaultAnswer ? { defaultAnswer: input.defaultAnswer } : {}),
      parked: input.parked ?? true,
    },
  });
};
