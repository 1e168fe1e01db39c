/**
 * The engine's other ports in the worker, all scoped to one run's team: the checkpoint
 * store, the lane policy on what the run reaches, call_workflow by name (pinned to the
 * versions current at run start), env names from the team's variables, and the run's
 * ordered event log (kept with the run; the run page shows the step runs the engine records
 * through step-run-recorder.ts, not these events).
 */
import type { AgentStepEvent, AgentVersionDrift } from "@switchyard/core/providers";
import { AppError } from "@switchyard/core/errors";
import type { Keyring } from "@switchyard/core/crypto";
import type { DesktopNotification } from "@switchyard/core/operations";
import type { Scrubber } from "@switchyard/core/secrets";
import type { BudgetSpend, BudgetStanding, BudgetWarning } from "@switchyard/core/governance";
import {
  bundleReader,
  type CheckpointStore,
  type EventSink,
  type RunEvent,
  type VariablesPort,
  type BundleFiles,
  type Workflow,
  type WorkflowResolver,
} from "@switchyard/core/workflow";
import { mayStart, resolveCalleeName, type Role } from "@switchyard/core/policy";
import {
  findWorkflowByName,
  findMembership,
  laneRules,
  loadBundle,
  parseBundle,
  runReachRefusal,
  type Db,
} from "@switchyard/db";
import type { RunWriter } from "./run-writer";
import { resolveTeamVariables } from "./team-variables";

/** One run's team, with the workflow versions it pinned at its start. */
type Scope = {
  db: Db;
  teamId: string;
  runId: string;
  pinned: Record<string, string>;
  /** the pack the run's workflow comes from (none for the team's own) */
  pack: string | null;
};

/** Checkpoints are scrubbed like everything else stored: values rendered from secrets end up in them. */
export const checkpointStore = (writer: RunWriter, scrubber: Scrubber): CheckpointStore => ({
  save: (checkpoint) => writer.checkpoint(scrubber.scrubValue(checkpoint)),
});

/**
 * The lane policy once more, here, on the versions the run pinned: every call it can make
 * must be allowed, and whoever started it must still be a member allowed to start every
 * lane it reaches. A run written without a starter gets only the first check.
 */
export const runLaneRefusal = async (
  { db, teamId, pinned, pack }: Scope,
  run: { lane: string; startedById: string | null },
  workflow: Workflow,
) => {
  const [lanes, starter] = await Promise.all([
    laneRules(db, teamId),
    run.startedById ? findMembership(db, run.startedById, { teamId }) : undefined,
  ]);
  let role: Role | undefined;
  if (run.startedById) {
    if (!starter)
      return new AppError(
        "FORBIDDEN",
        "whoever started this run is no longer a member of the team",
      );
    role = starter.role;
    const denied = mayStart(lanes, role, run.lane);
    if (denied) return denied;
  }
  return runReachRefusal(db, teamId, {
    root: { workflow, lane: run.lane, pack },
    lanes,
    role,
    pinned,
    starterId: run.startedById,
  });
};

/**
 * call_workflow by name among the versions the run pinned, from the caller's pack first
 * (calleeNames). A sub-workflow is known by its file here (`<name>/<entry>`), which tells
 * which pack its own calls look in; any other file is the run's own workflow's.
 */
export const teamWorkflowResolver = ({ db, teamId, pinned, pack }: Scope): WorkflowResolver => {
  const files = new WeakMap<Workflow, BundleFiles>();
  const packOfFile = new Map<string, string | null>();
  return {
    resolve: async (written, from) => {
      const callerPack = packOfFile.has(from.file) ? packOfFile.get(from.file) : pack;
      const name = await resolveCalleeName(callerPack, written, (n) => pinned[n] !== undefined);
      const versionId = name === undefined ? undefined : pinned[name];
      if (!name || !versionId) return undefined;
      const bundle = await loadBundle(db, teamId, versionId);
      if (!bundle) return undefined;
      const file = `${name}/${bundle.version.entryPath}`;
      packOfFile.set(file, (await findWorkflowByName(db, teamId, name))?.pack ?? null);
      const parsed = parseBundle(bundle, file);
      if (!parsed.workflow) {
        throw new AppError(
          "WORKFLOW.VALIDATION_FAILED",
          `sub-workflow "${name}" is invalid: ${parsed.errors[0]?.message ?? ""}`,
        );
      }
      files.set(parsed.workflow, bundleReader(bundle.files, bundle.version.entryPath));
      return parsed.workflow;
    },
    filesOf: (workflow) => files.get(workflow),
  };
};

/**
 * The team's variables by name, secrets opened here and added to the run's scrubber. A
 * secret not open to the run's lane is refused here too, whatever the web checked.
 */
export const teamVariablesPort = (
  { db, teamId }: Scope,
  keyring: Keyring,
  scrubber: Scrubber,
  runLane: string,
): VariablesPort => ({
  resolve: async (names) => {
    const resolved = await resolveTeamVariables(db, keyring, teamId, names, runLane);
    for (const secret of resolved.secrets) scrubber.add(secret);
    return resolved;
  },
});

const RECORDED: ReadonlySet<RunEvent["type"]> = new Set([
  "run.started",
  "run.resumed",
  "state.started",
  "state.finished",
  "step.retry",
  "hook.finished",
  "log",
  "run.finished",
]);

/**
 * The engine's events, in order, written by the run's writer with its next write (so off
 * the engine's path). A step's stored output is on its row; `step.output` events carry it
 * while the step runs.
 */
export const runEventLog = (writer: RunWriter, scrubber: Scrubber) => {
  const sink: EventSink = (event) => {
    if (!RECORDED.has(event.type)) return;
    const { type, ...payload } = event;
    writer.event(type, scrubber.scrubValue(payload));
  };
  return {
    sink,
    /**
     * What an agent attempt reports while it runs (text, tool use and results, usage,
     * errors), as `agent.event` rows the run page reads live.
     */
    agent: (
      attempt: { stepRunId: string; state: string; attempt: number },
      event: AgentStepEvent,
    ) => writer.event("agent.event", scrubber.scrubValue({ ...attempt, event })),
    /**
     * An agent CLI whose pinned install is at another version than scripts/agents.json pins,
     * staged for this run all the same: an `agent.version_drift` row the run page shows.
     */
    versionDrift: (drift: AgentVersionDrift) =>
      writer.event("agent.version_drift", {
        cli: drift.agent,
        pinned: drift.pinned,
        installed: drift.installed,
      }),
    /** What an agent attempt has spent so far against its limits, as `step.spend` rows the run page shows live. */
    spend: (
      attempt: { stepRunId: string; state: string; attempt: number },
      spend: BudgetSpend,
      standings: readonly BudgetStanding[],
    ) =>
      writer.event("step.spend", {
        ...attempt,
        spend,
        limits: standings.map((s) => ({
          scope: s.limit.scope,
          ...(s.limit.period ? { period: s.limit.period } : {}),
          ...(s.limit.name === undefined ? {} : { name: s.limit.name }),
          amount: s.amount,
          spent: s.spent,
          max: s.max,
        })),
      }),
    /** A limit crossed 80% of its amount during an attempt: a `budget.warning` row. */
    budgetWarning: (attempt: { stepRunId: string; state: string }, warning: BudgetWarning) =>
      writer.event("budget.warning", {
        ...attempt,
        scope: warning.limit.scope,
        ...(warning.limit.period ? { period: warning.limit.period } : {}),
        ...(warning.limit.name === undefined ? {} : { name: warning.limit.name }),
        amount: warning.amount,
        spent: warning.spent,
        max: warning.max,
      }),
    /**
     * notify.send's desktop backend: there is no desktop on a server, so a
     * `notify.desktop` row the run page shows.
     */
    desktop: (state: string, notification: DesktopNotification) =>
      writer.event("notify.desktop", scrubber.scrubValue({ state, ...notification })),
    /** A running step's output, as `step.output` rows (already scrubbed and coalesced by the runner). */
    output: (
      attempt: { stepRunId: string; state: string; attempt: number },
      chunk: { stream: string; text: string; truncated?: true },
    ) => writer.event("step.output", { ...attempt, ...chunk }),
    flush: () => writer.flush(),
  };
};
