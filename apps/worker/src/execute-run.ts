/**
 * Executes one run: loads its pinned workflow version, prepares the run's private folders
 * for its step uid, and drives the engine with the worker's ports (sandboxed processes,
 * Postgres checkpoints, events and step runs, team-scoped sub-workflows and variables). A
 * run that a previous worker left `running` resumes from its checkpoint.
 */
import path from "node:path";
import type { Keyring } from "@switchyard/core/crypto";
import { stepConnectors } from "@switchyard/core/connectors";
import { AppError } from "@switchyard/core/errors";
import type { BudgetWarning } from "@switchyard/core/governance";
import { makeStepFolders, runOwnerId, trackOwner } from "@switchyard/core/sandbox";
import { LOCK_LOST, RESUME_NOW, TEAM_LIMITED } from "@switchyard/core/runs";
import { DEFAULT_HOLD_MS, isRunParked } from "@switchyard/core/governance";
import type { ReplayChanges } from "@switchyard/core/replay";
import { Scrubber } from "@switchyard/core/secrets";
import {
  bundleReader,
  runWorkflow,
  type Checkpoint,
  type RunOutcome,
} from "@switchyard/core/workflow";
import {
  claimQueuedRun,
  claimRun,
  closeLostStepRuns,
  finishedAttemptsOf,
  endRun,
  finishRun,
  getRunForExecution,
  cancelRunWaits,
  closeWaitingAttempts,
  laneApprovalRules,
  loadBundle,
  markStepRunWaiting,
  parseBundle,
  nextEventSeq,
  parkedSnapshotOf,
  parkRunOnWait,
  resumeStepRun,
  waitingAttemptsOf,
  restoreWorkspaceSnapshot,
  whileDatabaseUnavailable,
  type Db,
} from "@switchyard/db";
import type { ModelGateway, PriceTable } from "@switchyard/core/gateway";
import type { ModelVendor } from "@switchyard/core/providers";
import type { FetchLike } from "@switchyard/core/egress";
import { createOperationPort, workspaceGitRemote } from "@switchyard/core/operations";
import {
  workerAgentExecutor,
  type AgentExecutorDeps,
  type TeamModelAccess,
} from "./agent-executor";
import { keepAttemptWorkspace, recordAttemptStart, type SnapshotSettings } from "./attempt-start";
import { conversationSessions } from "./conversation-sessions";
import { createGovernance } from "./attempt-governance";
import type { WaitWakers } from "./wait-wakers";
import { createConversations } from "./conversation-turns";
import { runReplay, type ReplayOf } from "./execute-replay";
import { defaultAgentsDir } from "./env";
import type { Logger } from "./logger";
import { cleanUpRun } from "./run-cleanup";
import {
  checkpointStore,
  runEventLog,
  runLaneRefusal,
  teamVariablesPort,
  teamWorkflowResolver,
} from "./run-ports";
import type { StepConfinement } from "./sandbox-boot";
import { createStepProcessRunner } from "./step-process-runner";
import { createRunWriter } from "./run-writer";
import { stepBudgets } from "./step-budget";
import { stepRunRecorder } from "./step-run-recorder";
import { cancelRunConnectorTasks } from "./connector-tasks";
import { openStepConnectors, type WorkerConnectors } from "./team-connectors";
import { endSpan, startRunSpan, traceIdOf } from "./tracing";

export type ExecuteRunDeps = {
  db: Db;
  log: Logger;
  workerId: string;
  confinement: StepConfinement;
  stepNetwork: boolean;
  /** A sandbox per step process, or one per run with a resident launcher (SWITCHYARD_STEP_LAUNCHER). */
  stepLauncher?: "per-step" | "per-run";
  keyring: Keyring;
  /**
   * Model endpoints openai_compatible steps may call (SWITCHYARD_MODEL_ENDPOINTS).
   * @default [] (none)
   */
  modelEndpoints?: readonly string[];
  /** How openai_compatible steps reach their model endpoint: the worker's egress fetch for models. */
  modelFetch: FetchLike;
  /**
   * How operation states reach the network: the worker's egress fetches for operations and
   * notifications, and the GitHub API's base URL (SWITCHYARD_GITHUB_API_URL). Without it,
   * an operation state fails.
   */
  operations?: { fetch: FetchLike; notifyFetch: FetchLike; githubApiUrl: string };
  /** A team's model access for a vendor (Settings → Models), its key opened. */
  modelAccess?: (teamId: string, vendor: ModelVendor) => Promise<TeamModelAccess | undefined>;
  /** Prices over the built-in table (SWITCHYARD_MODEL_PRICES). */
  prices?: PriceTable;
  /** The worker's model gateway (agent CLIs reach models only through it). */
  gateway?: ModelGateway;
  /** Where the agent CLIs are installed (SWITCHYARD_AGENTS_DIR). */
  agentsDir?: string;
  /** The worker's connector pool; without one, a step naming a connector fails. */
  connectors?: WorkerConnectors;
  /** Tells live views that something of this run was recorded. */
  notify: (runId: string) => void;
  /**
   * Limits of the workspace snapshot kept as each agent attempt starts
   * (SWITCHYARD_SNAPSHOT_MAX_BYTES, SWITCHYARD_SNAPSHOT_TEAM_BYTES); unset: none is kept.
   */
  snapshots?: SnapshotSettings;
  /**
   * How long the run's writes wait for an unreachable database (SWITCHYARD_DB_OUTAGE_MS).
   * @default OUTAGE_MS (60 s)
   */
  outageMs?: number;
  /** A budget limit crossed 80% during a run: the team's notifications hear of it. */
  onBudgetWarning?: (warning: { teamId: string; runId: string; warning: BudgetWarning }) => void;
  /** The operator's limit on any one team's runs at once (SWITCHYARD_TEAM_RUN_LIMIT); a team's own may only lower it. */
  teamRunLimit?: number | null;
  /**
   * How long a tool call held for approval stays open before its step is suspended
   * (SWITCHYARD_APPROVAL_HOLD_MS).
   * @default DEFAULT_HOLD_MS (2 minutes)
   */
  holdMs?: number;
  /** Held calls woken when their wait is announced answered (main.ts feeds it from Redis). */
  waitWakers?: WaitWakers;
  /**
   * How often a held call reads its wait anyway (SWITCHYARD_WAIT_POLL_MS).
   * @default WAIT_POLL_MS
   */
  waitPollMs?: number;
  /** A wait opened (notifications: wait.opened). */
  onWaitOpened?: (wait: { teamId: string; runId: string; waitId: string }) => void;
};

/** What a suspended step's workspace may hold when the worker keeps no replay snapshots. */
const PARK_SNAPSHOT_LIMITS = { maxBytes: 64 * 1024 * 1024, teamBytes: 1024 * 1024 * 1024 };

/** How long the run's writes wait for an unreachable database when the worker does not say. */
const OUTAGE_MS = 60_000;

export type RunJobInput = { runId: string; teamId: string; traceparent?: string };

/**
 * `finalAttempt` is false while BullMQ will try the job again: an unexpected error (the
 * database gone for a moment, say) then leaves the run to be resumed by the retry instead
 * of failing it.
 */
type Execution = {
  workflowName: string;
  workflowPack: string | null;
  workflowVersionId: string;
  inputs: unknown;
  lane: string;
  startedById: string | null;
  pinnedVersions: Record<string, string>;
  /** the sequence number of the run's next event */
  firstSeq: number;
  /** where a run that a previous worker left `running` resumes */
  checkpoint?: Checkpoint;
  /** the attempts such a run had ended, taken as recorded instead of run again */
  finished?: Awaited<ReturnType<typeof finishedAttemptsOf>>;
  /** a replay run: the recorded agent attempt it runs again instead of the workflow */
  replayOf?: ReplayOf;
  /** taken again after a worker left it or after a wait (not a fresh start) */
  resumed?: boolean;
};

const replayOfRow = (row: { replayOfId: string | null; replayOptions: unknown }) =>
  row.replayOfId
    ? {
        replayOf: {
          attemptId: row.replayOfId,
          changes: (row.replayOptions ?? {}) as ReplayChanges,
        },
      }
    : {};

/**
 * Takes the run for this worker: a queued run in one statement (the common case), else
 * the run as it stands (resumed from its checkpoint when a worker left it running). A
 * string is how the job ends without executing anything.
 */
const claimExecution = async (
  deps: ExecuteRunDeps,
  teamId: string,
  runId: string,
): Promise<Execution | string> => {
  const { db, log } = deps;
  const fresh = await claimQueuedRun(db, teamId, runId, deps.workerId, deps.teamRunLimit ?? null);
  // Its team is at its limit of running runs: the run stays queued and its job waits.
  if (fresh === "limited") return TEAM_LIMITED;
  if (fresh)
    return {
      ...fresh,
      pinnedVersions: fresh.pinnedVersions ?? {},
      firstSeq: fresh.nextSeq,
      ...replayOfRow(fresh),
    };
  const run = await getRunForExecution(db, teamId, runId);
  if (!run) throw new AppError("NOT_FOUND", `run ${runId} not found`);
  if (run.status !== "queued" && run.status !== "running" && run.status !== "waiting") {
    log.warn("run is not runnable", { runId, status: run.status });
    return run.status;
  }
  // A waiting run is taken once its parked waits are answered: it resumes from its checkpoint.
  const resuming = run.status !== "queued" && run.checkpoint !== null;
  if (!(await claimRun(db, teamId, runId, deps.workerId, run)))
    return run.status === "waiting" ? "waiting" : "skipped";
  let finished: Execution["finished"];
  if (run.status !== "queued") {
    [, finished] = await Promise.all([
      closeLostStepRuns(db, teamId, runId),
      finishedAttemptsOf(db, teamId, runId),
    ]);
    if (run.status === "waiting") log.info("resuming run after its wait", { runId });
    else
      log.warn(
        resuming ? "resuming run from its checkpoint" : "restarting run that had no checkpoint yet",
        { runId, attemptsEnded: finished.length },
      );
  }
  if (run.cancelRequestedAt) {
    // Cancelled while no worker held it (its worker had died): honour that now.
    await finishRun(
      db,
      teamId,
      runId,
      {
        status: "cancelled",
        errorCode: "EXECUTION.CANCELLED",
        errorMessage: "cancelled while no worker held the run",
      },
      deps.workerId,
    );
    await cancelRunWaits(db, teamId, runId);
    await closeWaitingAttempts(db, teamId, runId);
    await cancelRunConnectorTasks({ db, log, pool: deps.connectors?.pool }, teamId, runId);
    return "cancelled";
  }
  return {
    workflowName: run.workflow.name,
    workflowPack: run.workflow.pack,
    workflowVersionId: run.workflowVersionId,
    inputs: run.inputs,
    lane: run.lane,
    startedById: run.startedById,
    pinnedVersions: (run.pinnedVersions as Record<string, string> | null) ?? {},
    firstSeq: await nextEventSeq(db, teamId, runId),
    ...(resuming ? { checkpoint: run.checkpoint as Checkpoint } : {}),
    ...(finished ? { finished } : {}),
    resumed: run.status !== "queued",
    ...replayOfRow(run),
  };
};

/** A run that threw: its outcome, and the error to retry with while BullMQ will try again. */
const failedRun = (
  error: unknown,
  finalAttempt: boolean,
  log: Logger,
  runId: string,
  scrubber: Scrubber,
): { outcome: Pick<RunOutcome, "status" | "errorCode" | "errorMessage">; retry?: Error } => {
  let retry: Error | undefined;
  // Not the run's fault (the database gone for longer than its writes wait, say): while
  // BullMQ will try the job again, the run is left running, to be resumed from its checkpoint.
  const infrastructure =
    !(error instanceof AppError) || (error.retryable && error.code.startsWith("SYSTEM."));
  if (infrastructure && !finalAttempt)
    retry = error instanceof Error ? error : new Error(String(error));
  const outcome: Pick<RunOutcome, "status" | "errorCode" | "errorMessage"> = {
    status: "failed",
    errorCode: error instanceof AppError ? error.code : "SYSTEM.INTERNAL",
    errorMessage: error instanceof Error ? error.message : String(error),
  };
  log.error(retry ? "run interrupted; its job will retry" : "run failed", {
    runId,
    code: outcome.errorCode,
    error: scrubber.scrub(outcome.errorMessage ?? ""),
  });
  return { outcome, ...(retry ? { retry } : {}) };
};

/**
 * `finalAttempt` is false while BullMQ will try the job again: an unexpected error (the
 * database gone for a moment, say) then leaves the run to be resumed by the retry instead
 * of failing it.
 */
export const executeRun = async (
  deps: ExecuteRunDeps,
  job: RunJobInput,
  signal: AbortSignal,
  finalAttempt = true,
) => {
  const { db, log, confinement } = deps;
  const { runId, teamId } = job;
  const run = await claimExecution(deps, teamId, runId);
  if (typeof run === "string") return run;

  const { span, context: trace } = startRunSpan(run.workflowName, job.traceparent, {
    "switchyard.run.id": runId,
    "switchyard.team.id": teamId,
    "switchyard.workflow.name": run.workflowName,
    "switchyard.sandbox.level": confinement.sandbox.level,
  });
  const scrubber = new Scrubber();
  const outageMs = deps.outageMs ?? OUTAGE_MS;
  const writer = createRunWriter({
    db,
    log,
    teamId,
    runId,
    workerId: deps.workerId,
    firstSeq: run.firstSeq,
    scrubber,
    notify: () => deps.notify(runId),
    outageMs,
  });
  const traceId = traceIdOf(span);
  if (traceId) writer.traceId(traceId);

  const runDir = path.join(confinement.runsDir, runId);
  // Every process of this run carries its own owner tag, so the run's end can confirm none is left.
  const sandbox = {
    ...confinement.sandbox,
    ownerId: runOwnerId(confinement.sandbox.ownerId, runId),
  };
  // Counted from here: a run whose processes all ended with their PID namespaces is cleaned
  // up without a scan of /proc (the sweep at boot finds what a crashed worker left).
  const untrack = trackOwner(sandbox.ownerId);
  // Aborted when the run ends for any reason: whatever of it still runs is stopped.
  const stop = new AbortController();
  const scope = { db, teamId, runId, pinned: run.pinnedVersions, pack: run.workflowPack };
  let uid: number | undefined;
  let processes: ReturnType<typeof createStepProcessRunner> | undefined;
  const events = runEventLog(writer, scrubber);
  let outcome: Pick<RunOutcome, "status" | "errorCode" | "errorMessage">;
  let retry: Error | undefined;
  /** The wait a step parked the run on: the run waits for it, holding no worker. */
  let parkedOn: string | undefined;
  try {
    uid = confinement.uids?.acquire();
    const bundle = await loadBundle(db, teamId, run.workflowVersionId);
    if (!bundle)
      throw new AppError("NOT_FOUND", `workflow version ${run.workflowVersionId} not found`);
    const parsed = parseBundle(bundle);
    if (!parsed.workflow) {
      throw new AppError(
        parsed.errors[0]?.code ?? "WORKFLOW.VALIDATION_FAILED",
        parsed.errors.map((e) => e.message).join("\n"),
      );
    }
    // The lane policy's reads and the run's folders at once (a refused run's folders go with the rest).
    const [refused, folders] = await Promise.all([
      runLaneRefusal(scope, run, parsed.workflow),
      makeStepFolders(runDir, uid === undefined ? undefined : { uid }),
    ]);
    if (refused) throw refused;
    // A resumed run gets back the newest workspace it kept: the one its suspended step left
    // (after a wait), or a session-tracked step's (on another worker, after a kill).
    if (run.resumed) {
      const parked = await parkedSnapshotOf(db, teamId, runId);
      if (parked)
        await restoreWorkspaceSnapshot(
          db,
          teamId,
          parked,
          folders.workspace,
          uid === undefined ? {} : { uid },
        );
    }
    const attemptStart = {
      db,
      log,
      teamId,
      runId,
      workspace: folders.workspace,
      scrubber,
      writer,
      snapshots: deps.snapshots,
    };
    // What an agent step that waits for a person needs: held calls and conversations alike.
    const waitDeps = {
      db,
      log,
      keyring: deps.keyring,
      teamId,
      runId,
      lane: run.lane,
      scrubber,
      workspace: folders.workspace,
      snapshotLimits: deps.snapshots ?? PARK_SNAPSHOT_LIMITS,
      onWaitOpened: (waitId: string) => {
        deps.notify(runId);
        deps.onWaitOpened?.({ teamId, runId, waitId });
      },
    };
    const agentDeps: AgentExecutorDeps = {
      db,
      log,
      teamId,
      runId,
      sandbox,
      uid,
      runDir,
      folders,
      scrubber,
      modelEndpoints: deps.modelEndpoints ?? [],
      modelFetch: deps.modelFetch,
      modelAccess: (vendor) => deps.modelAccess?.(teamId, vendor) ?? Promise.resolve(undefined),
      gateway: deps.gateway,
      ...(deps.prices ? { prices: deps.prices } : {}),
      agentsDir: deps.agentsDir ?? defaultAgentsDir(),
      agentsStageDir: path.join(confinement.workspacesDir, ".agents"),
      stepConnectors: async (request) => {
        const { slugs, expose } = stepConnectors(request.mcpProxy);
        if (slugs.length === 0) return undefined;
        if (!deps.connectors)
          throw new AppError("EXECUTION.CONNECTOR_UNAVAILABLE", "this worker hosts no connectors");
        return openStepConnectors({
          db,
          keyring: deps.keyring,
          log,
          connectors: deps.connectors,
          scrubber,
          teamId,
          runId,
          lane: run.lane,
          starterId: run.startedById,
          slugs,
          expose,
          stateName: request.stateName,
          // A server's form is the run's starter's to fill in, held as long as an approval.
          elicitation: {
            waitMs: deps.holdMs ?? DEFAULT_HOLD_MS,
            stepRunId: request.attemptId,
            onWaitOpened: waitDeps.onWaitOpened,
            ...(deps.waitWakers ? { waitWakers: deps.waitWakers } : {}),
            ...(deps.waitPollMs ? { pollMs: deps.waitPollMs } : {}),
          },
        });
      },
      onAgentEvent: (attempt, event) => events.agent(attempt, event),
      onVersionDrift: (drift) => events.versionDrift(drift),
      budgets: stepBudgets({
        db,
        log,
        teamId,
        runId,
        workflowId: bundle.version.workflowId,
        workflowName: run.workflowName,
        lane: run.lane,
        memberId: run.startedById,
        onSpend: (attempt, spent, standings) => events.spend(attempt, spent, standings),
        onWarning: (attempt, warning) => {
          events.budgetWarning(attempt, warning);
          deps.onBudgetWarning?.({ teamId, runId, warning });
        },
      }),
      trace,
      outageMs,
      onAttemptStart: recordAttemptStart(attemptStart),
      sessions: conversationSessions({
        db,
        keyring: deps.keyring,
        teamId,
        runId,
        keepWorkspace: (request) =>
          keepAttemptWorkspace(
            { ...attemptStart, snapshots: deps.snapshots ?? PARK_SNAPSHOT_LIMITS },
            request,
          ),
      }),
      governance: createGovernance({
        ...waitDeps,
        workerId: deps.workerId,
        laneRules: () => laneApprovalRules(db, teamId, run.lane),
        holdMs: deps.holdMs ?? DEFAULT_HOLD_MS,
        ...(deps.waitWakers ? { waitWakers: deps.waitWakers } : {}),
        ...(deps.waitPollMs ? { pollMs: deps.waitPollMs } : {}),
      }),
      conversations: createConversations(waitDeps),
    };
    const recorder = stepRunRecorder(writer, sandbox.level, run.finished, {
      waiting: run.resumed ? await waitingAttemptsOf(db, teamId, runId) : [],
      suspend: (stepRunId) => markStepRunWaiting(db, teamId, stepRunId).then(() => undefined),
      resume: (stepRunId) => resumeStepRun(db, teamId, stepRunId).then(() => undefined),
    });
    if (run.replayOf) {
      let restored: string | undefined;
      outcome = await runReplay(
        {
          db,
          teamId,
          runId,
          workflow: run.workflowName,
          scrubber,
          recorder,
          events: events.sink,
          agents: (replay, agentVersion) =>
            workerAgentExecutor({
              ...agentDeps,
              // The workspace is the source's snapshot, restored: the attempt keeps that one.
              onAttemptStart: recordAttemptStart({ ...attemptStart, restored }),
              replay,
              ...(agentVersion ? { agentVersion } : {}),
            }),
          restore: async (snapshotId) => {
            await restoreWorkspaceSnapshot(
              db,
              teamId,
              snapshotId,
              folders.workspace,
              uid === undefined ? {} : { uid },
            );
            restored = snapshotId;
          },
          signal: AbortSignal.any([signal, stop.signal]),
        },
        run.replayOf,
      );
    } else
      outcome = await runWorkflow(parsed.workflow, {
        runId,
        signal: AbortSignal.any([signal, stop.signal]),
        scrubber,
        inputs: run.inputs as Record<string, unknown>,
        checkpoint: run.checkpoint,
        runProcess: (processes = createStepProcessRunner({
          log,
          runId,
          sandbox,
          uid,
          folders,
          network: deps.stepNetwork,
          ...(deps.stepLauncher ? { launcher: deps.stepLauncher } : {}),
          scrubber,
          trace,
          onOutput: (attempt, chunk) => events.output(attempt, chunk),
        })),
        agents: workerAgentExecutor(agentDeps),
        ...(deps.operations
          ? {
              operations: createOperationPort({
                ...deps.operations,
                gitRemote: () => workspaceGitRemote(folders.workspace),
                desktop: (request, notification) => events.desktop(request.stateName, notification),
              }),
            }
          : {}),
        recorder,
        files: bundleReader(bundle.files, bundle.version.entryPath),
        store: checkpointStore(writer, scrubber),
        resolver: teamWorkflowResolver(scope),
        variables: teamVariablesPort(scope, deps.keyring, scrubber, run.lane),
        events: events.sink,
      });
  } catch (error) {
    if (isRunParked(error)) {
      parkedOn = error.waitId;
      outcome = { status: "cancelled" };
    } else {
      ({ outcome, retry } = failedRun(error, finalAttempt, log, runId, scrubber));
    }
  } finally {
    stop.abort();
    try {
      // The run's launcher, if it has one, ends before its folders go.
      await processes?.close().catch((error: unknown) =>
        log.warn("the run's step launcher did not close cleanly", {
          runId,
          error: String(error),
        }),
      );
      await events.flush();
    } finally {
      await cleanUpRun({
        runId,
        ownerId: sandbox.ownerId,
        runDir,
        uid,
        uids: confinement.uids,
        log,
        untrack,
      });
    }
  }
  // Whatever leaves from here (span status, the error BullMQ keeps as the job's failed
  // reason and stack in Redis, the log of its failure) is scrubbed with the run's scrubber.
  const errorMessage =
    outcome.errorMessage === undefined ? undefined : scrubber.scrub(outcome.errorMessage);
  if (parkedOn) {
    const waitId = parkedOn;
    const parked = await whileDatabaseUnavailable(
      () => parkRunOnWait(db, { teamId, runId, waitId, workerId: deps.workerId }),
      { outageMs },
    );
    endSpan(span, true, undefined);
    deps.notify(runId);
    if (!parked) {
      log.info("the wait was answered while its step stopped; the run goes on", { runId, waitId });
      return RESUME_NOW;
    }
    log.info("run waits for a person", { runId, waitId });
    return "waiting";
  }
  if (retry) {
    endSpan(span, false, errorMessage);
    throw scrubber.scrubError(retry);
  }
  if (outcome.errorCode === "EXECUTION.RUN_TAKEN_OVER" || signal.reason === LOCK_LOST) {
    endSpan(span, false, errorMessage);
    log.warn("run taken over by another worker; stopped here", { runId });
    return "taken over";
  }
  const finish = { status: outcome.status, errorCode: outcome.errorCode, errorMessage };
  await whileDatabaseUnavailable(
    async () => {
      // One statement: the run's end, and a call still held when it ended (cancelled, timed
      // out) has nobody to wait for.
      const { openTasks } = await endRun(db, teamId, runId, finish, deps.workerId);
      // Likewise a connector task still running at its server.
      if (openTasks)
        await cancelRunConnectorTasks({ db, log, pool: deps.connectors?.pool }, teamId, runId);
    },
    { outageMs },
  ).catch((error: unknown) => {
    const safe = scrubber.scrubError(error);
    endSpan(span, false, safe.message);
    throw safe;
  });
  deps.notify(runId);
  endSpan(span, outcome.status === "succeeded", errorMessage, outcome.errorCode);
  log.info("run finished", { runId, status: outcome.status });
  return outcome.status;
};
