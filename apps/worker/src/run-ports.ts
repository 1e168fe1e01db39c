/**
 * The engine's other ports in the worker, all scoped to one run's team: the checkpoint
 * store, call_workflow by name (pinned to the versions current at run start), env names
 * from the team's variables, and the ordered event log the dashboard replays.
 */
import { AppError } from "@switchyard/core/errors";
import type { Scrubber } from "@switchyard/core/secrets";
import {
  parseWorkflow,
  type CheckpointStore,
  type EventSink,
  type RunEvent,
  type VariablesPort,
  type WorkflowResolver,
} from "@switchyard/core/workflow";
import { appendRunEvents, loadBundle, pinnedVersions, saveCheckpoint, teamVariables, type Db } from "@switchyard/db";
import type { Logger } from "./logger";

type Scope = { db: Db; teamId: string; runId: string };

export const checkpointStore = ({ db, teamId, runId }: Scope): CheckpointStore => ({
  save: async (checkpoint) => {
    await saveCheckpoint(db, teamId, runId, checkpoint);
  },
});

export const teamWorkflowResolver = ({ db, teamId, runId }: Scope): WorkflowResolver => ({
  resolve: async (name) => {
    const versionId = (await pinnedVersions(db, teamId, runId))[name];
    if (!versionId) return undefined;
    const bundle = await loadBundle(db, teamId, versionId);
    if (!bundle) return undefined;
    const parsed = parseWorkflow(bundle.entry, `${name}/${bundle.version.entryPath}`);
    if (!parsed.workflow) {
      throw new AppError("WORKFLOW.VALIDATION_FAILED", `sub-workflow "${name}" is invalid: ${parsed.errors[0]?.message ?? ""}`);
    }
    return parsed.workflow;
  },
});

/**
 * The team's plain variables by name. Secret variables need the credential broker, which
 * this worker does not have yet: a workflow naming one fails clearly instead of getting "".
 */
export const teamVariablesPort = ({ db, teamId }: Scope): VariablesPort => ({
  resolve: async (names) => {
    const rows = await teamVariables(db, teamId, names);
    const secret = rows.find((row) => row.secret);
    if (secret) {
      throw new AppError("USER.UNSUPPORTED_FEATURE", `secret variable "${secret.name}" cannot be resolved by this worker yet`);
    }
    return { values: Object.fromEntries(rows.map((row) => [row.name, row.value ?? ""])), secrets: [] };
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
 * Writes engine events in order, batched, off the engine's path; `flush` waits for all.
 * Step output is not repeated here: it is on the step rows.
 */
export const runEventLog = (scope: Scope, firstSeq: number, log: Logger, scrubber: Scrubber) => {
  let seq = firstSeq;
  let pending: { type: string; payload: Record<string, unknown> }[] = [];
  let chain: Promise<void> = Promise.resolve();
  const drain = () => {
    const batch = pending;
    pending = [];
    chain = chain
      .then(async () => {
        seq = await appendRunEvents(scope.db, scope.teamId, scope.runId, seq, batch);
      })
      .catch((e: unknown) => log.error("could not record run events", { runId: scope.runId, error: String(e) }));
  };
  const sink: EventSink = (event) => {
    if (!RECORDED.has(event.type)) return;
    const { type, ...payload } = event;
    pending.push({ type, payload: JSON.parse(scrubber.scrub(JSON.stringify(payload))) as Record<string, unknown> });
    if (pending.length === 1) queueMicrotask(drain);
  };
  return {
    sink,
    flush: async () => {
      if (pending.length > 0) drain();
      await chain;
    },
  };
};
