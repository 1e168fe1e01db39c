/**
 * Starts a run of a workflow's current version, for every way a run starts (the dashboard,
 * the API, a schedule or webhook in the worker): checks with the lane policy that the caller
 * may start runs in the workflow's lane and in every lane its call_workflow states reach,
 * writes the run row and enqueues its job. If the job cannot be enqueued
 * the row is removed again, so no run is left queued that no worker will ever see.
 * With an Idempotency-Key, a start is done at most once per team and key: the same request
 * again gets the first run back (`replayed`), another request with the key is refused, and
 * of concurrent starts with one key the unique index lets exactly one write its row.
 */
import { createHash } from "node:crypto";
import { AppError } from "@switchyard/core/errors";
import type { RunJob } from "@switchyard/core/runs";
import { mayStart } from "@switchyard/core/policy";
import {
  checkStartInputs,
  missingRequiredInputs,
  type InputDefinition,
} from "@switchyard/core/workflow";
import type { Db } from "../client";
import type { Role, RunTrigger } from "../generated/prisma/client";
import { budgetStartRefusal } from "../repositories/budgets";
import { loadBundle, parseBundle } from "../repositories/bundle-store";
import { createRunWaitingForInputs } from "../repositories/input-waits";
import { discardQueuedRun } from "../repositories/run-lifecycle";
import { createRun, findRunByIdempotencyKey, type RunReplay } from "../repositories/runs";
import { getWorkflow, laneRules, runReachRefusal } from "../repositories/workflows";

/** The run queue, as far as starting a run needs it (a BullMQ `Queue<RunJob>`). */
type RunEnqueuer = {
  add: (
    name: "run",
    data: RunJob,
    opts: {
      jobId: string;
      attempts: number;
      backoff: { type: "exponential"; delay: number };
      removeOnComplete: { count: number };
      removeOnFail: { count: number };
    },
  ) => Promise<unknown>;
};
export type StartRunDeps = {
  db: Db;
  queue: RunEnqueuer;
  /** told when a triggered run waits for its missing inputs (wait.opened notifications) */
  onWaitOpened?: (wait: { teamId: string; runId: string; waitId: string }) => unknown;
};

/**
 * Enqueues a run's job. Its id is the run's, so adding it again while it exists does
 * nothing (the worker's requeue sweep adds it again when Redis lost it). A job fails only
 * when the worker's own infrastructure does (a database blip, say); a failing workflow
 * still completes its job. Retries resume the run where it was.
 */
export const enqueueRunJob = (queue: RunEnqueuer, job: RunJob) =>
  queue.add("run", job, {
    jobId: job.runId,
    attempts: 5,
    backoff: { type: "exponential", delay: 2000 },
    removeOnComplete: { count: 1000 },
    removeOnFail: { count: 1000 },
  });
export type StartRunInput = {
  teamId: string;
  userId: string;
  role: Role;
  workflowId: string;
  inputs?: Record<string, unknown>;
  trigger: RunTrigger;
  /** a saved version of the workflow to run; its current version when unset */
  versionId?: string;
  /** the schedule or webhook trigger that fired it */
  triggerId?: string;
  /** the W3C traceparent of the span the start happened in, carried to the worker */
  traceparent?: string;
  /** the caller's Idempotency-Key: a retry of the same request starts nothing new */
  idempotencyKey?: string;
  /** the run this start re-runs */
  rerunOfId?: string;
  /** a replay of an agent attempt (trigger `replay`) */
  replay?: RunReplay;
};

/** JSON with object keys sorted, so equal values hash equally whatever their key order. */
const canonical = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
};

/** What an Idempotency-Key is bound to: the workflow, the version asked for and the inputs. */
const requestHash = (input: StartRunInput) =>
  createHash("sha256")
    .update(
      canonical({
        workflowId: input.workflowId,
        versionId: input.versionId ?? null,
        inputs: input.inputs ?? {},
      }),
    )
    .digest("hex");

const isUniqueViolation = (error: unknown) =>
  (error as { code?: unknown } | null)?.code === "P2002";

/** The run an earlier start with the key made, or a refusal when the key came with another request. */
const replay = async (db: Db, teamId: string, key: string, hash: string) => {
  const first = await findRunByIdempotencyKey(db, teamId, key);
  if (!first) return undefined;
  if (first.idempotencyHash !== hash) {
    throw new AppError(
      "USER.IDEMPOTENCY_KEY_REUSED",
      "this Idempotency-Key was used for another request (workflow, version or inputs); send a new key",
      {
        details: { runId: first.id },
      },
    );
  }
  return { ...first, replayed: true };
};

/** A run's write failed: when another start with the same key wrote its row first, that one is the run. */
const keyClash = async (
  db: Db,
  teamId: string,
  idempotency: { key: string; hash: string } | undefined,
  error: unknown,
) => {
  const first =
    idempotency && isUniqueViolation(error)
      ? await replay(db, teamId, idempotency.key, idempotency.hash)
      : undefined;
  if (first) return first;
  throw error;
};

export const startRun = async (deps: StartRunDeps, input: StartRunInput) => {
  // Reads that do not depend on each other go at once: a start waits for two round trips
  // to the database here, not four.
  const [workflow, lanes] = await Promise.all([
    getWorkflow(deps.db, input.teamId, input.workflowId),
    laneRules(deps.db, input.teamId),
  ]);
  if (!workflow || workflow.archivedAt) throw new AppError("NOT_FOUND", "workflow not found");
  if (!workflow.currentVersion) throw new AppError("CONFLICT", "workflow has no saved version");
  const versionId = input.versionId ?? workflow.currentVersion.id;

  const denied = mayStart(lanes, input.role, workflow.lane);
  if (denied) throw denied;
  const [overBudget, bundle] = await Promise.all([
    budgetStartRefusal(deps.db, input.teamId, workflow.lane),
    loadBundle(deps.db, input.teamId, versionId),
  ]);
  if (overBudget) throw overBudget;
  const idempotency = input.idempotencyKey
    ? { key: input.idempotencyKey, hash: requestHash(input) }
    : undefined;
  if (idempotency) {
    const first = await replay(deps.db, input.teamId, idempotency.key, idempotency.hash);
    if (first) return first;
  }
  // What the run will reach, at the versions it is about to pin: the starter must be allowed
  // to start every lane of it (the worker checks the pinned versions again).
  if (!bundle || bundle.version.workflowId !== workflow.id)
    throw new AppError("NOT_FOUND", "workflow version not found");
  const root = parseBundle(bundle).workflow;
  const refused =
    root &&
    (await runReachRefusal(deps.db, input.teamId, {
      root: { workflow: root, lane: workflow.lane, pack: workflow.pack },
      lanes,
      role: input.role,
      starterId: input.userId,
    }));
  if (refused) throw refused;
  // A schedule or a webhook has no one to ask: a run it starts without a required input
  // waits for a person to fill it in (AWF prompts in a terminal); the others are refused.
  const given = input.inputs ?? {};
  const missing = root ? missingRequiredInputs(root.inputs, given) : [];
  if (root && missing.length > 0 && WAITS_FOR_INPUTS.has(input.trigger))
    return startWaitingForInputs(deps, input, root.inputs, missing, {
      workflowId: workflow.id,
      versionId,
      lane: workflow.lane,
      idempotency,
    });
  // The inputs against the version's declaration, so a wrong one is refused by name now.
  const badInputs = root && (await checkStartInputs(root.inputs, given));
  if (badInputs) throw badInputs;

  const creating = createRun(deps.db, {
    teamId: input.teamId,
    workflowId: workflow.id,
    workflowVersionId: versionId,
    lane: workflow.lane,
    trigger: input.trigger,
    inputs: input.inputs,
    startedById: input.userId,
    triggerId: input.triggerId,
    rerunOfId: input.rerunOfId,
    idempotency,
    replay: input.replay,
  });
  let run;
  try {
    run = await creating;
  } catch (error) {
    return keyClash(deps.db, input.teamId, idempotency, error);
  }
  try {
    await enqueueRunJob(deps.queue, {
      runId: run.id,
      teamId: input.teamId,
      traceparent: input.traceparent,
    });
  } catch (cause) {
    await discardQueuedRun(deps.db, input.teamId, run.id);
    throw new AppError(
      "SYSTEM.QUEUE_UNAVAILABLE",
      "the run queue is unavailable; nothing was started",
      {
        retryable: true,
        cause,
      },
    );
  }
  return { ...run, replayed: false };
};

/** The ways a run starts with no person at hand to refuse: their runs wait for missing inputs. */
const WAITS_FOR_INPUTS: ReadonlySet<RunTrigger> = new Set(["schedule", "webhook"]);

/**
 * A triggered run without a required input: the inputs it was given are checked now (a wrong
 * one is the trigger's to fix), and the run is written waiting on an `input` wait asking for
 * every input it was not given; the answer queues it (waits.ts).
 */
const startWaitingForInputs = async (
  deps: StartRunDeps,
  input: StartRunInput,
  defs: InputDefinition[],
  missing: InputDefinition[],
  at: {
    workflowId: string;
    versionId: string;
    lane: string;
    idempotency?: { key: string; hash: string };
  },
) => {
  const given = input.inputs ?? {};
  const asked = defs.filter((d) => given[d.name] === undefined);
  const badInputs = await checkStartInputs(
    defs.filter((d) => !asked.includes(d)),
    given,
  );
  if (badInputs) throw badInputs;
  let created;
  try {
    created = await createRunWaitingForInputs(
      deps.db,
      {
        teamId: input.teamId,
        workflowId: at.workflowId,
        workflowVersionId: at.versionId,
        lane: at.lane,
        trigger: input.trigger,
        inputs: given,
        startedById: input.userId,
        triggerId: input.triggerId,
        rerunOfId: input.rerunOfId,
        idempotency: at.idempotency,
        replay: input.replay,
      },
      asked,
      missing.map((d) => d.name),
    );
  } catch (error) {
    return keyClash(deps.db, input.teamId, at.idempotency, error);
  }
  const { run, waitId } = created;
  await deps.onWaitOpened?.({ teamId: input.teamId, runId: run.id, waitId });
  return { ...run, replayed: false, waitId };
};
