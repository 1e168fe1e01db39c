/**
 * The engine's other ports in the worker, all scoped to one run's team: the checkpoint
 * store, call_workflow by name (pinned to the versions current at run start), env names
 * from the team's variables, and the ordered event log the dashboard replays.
 */
import { AppError } from "@switchyard/core/errors";
import type { Keyring } from "@switchyard/core/crypto";
import type { Scrubber } from "@switchyard/core/secrets";
import {
  parseWorkflow,
  type CheckpointStore,
  type EventSink,
  type RunEvent,
  type VariablesPort,
  type BundleFiles,
  type Workflow,
  type WorkflowResolver,
} from "@switchyard/core/workflow";
import { appendRunEvents, bundleReader, loadBundle, pinnedVersions, resolveVariables, saveCheckpoint, type Db } from "@switchyard/db";
import type { Logger } from "./logger";

type Scope = { db: Db; teamId: string; runId: string };

/** Checkpoints are scrubbed like everything else stored: values rendered from secrets end up in them. */
export const checkpointStore = ({ db, teamId, runId }: Scope, workerId: string, scrubber: Scrubber): CheckpointStore => ({
  save: async (checkpoint) => {
    const held = await saveCheckpoint(db, teamId, runId, workerId, JSON.parse(scrubber.scrub(JSON.stringify(checkpoint))));
    if (!held) throw new AppError("EXECUTION.RUN_TAKEN_OVER", "another worker has taken this run over; this worker stops it");
  },
});

export const teamWorkflowResolver = ({ db, teamId, runId }: Scope): WorkflowResolver => {
  const files = new WeakMap<Workflow, BundleFiles>();
  return {
    resolve: async (name) => {
      const versionId = (await pinnedVersions(db, teamId, runId))[name];
      if (!versionId) return undefined;
      const bundle = await loadBundle(db, teamId, versionId);
      if (!bundle) return undefined;
      const parsed = parseWorkflow(bundle.entry, `${name}/${bundle.version.entryPath}`);
      if (!parsed.workflow) {
        throw new AppError("WORKFLOW.VALIDATION_FAILED", `sub-workflow "${name}" is invalid: ${parsed.errors[0]?.message ?? ""}`);
      }
      files.set(parsed.workflow, bundleReader(bundle.files, bundle.version.entryPath));
      return parsed.workflow;
    },
    filesOf: (workflow) => files.get(workflow),
  };
};

/** The team's variables by name, secrets opened here and added to the run's scrubber. */
export const teamVariablesPort = ({ db, teamId }: Scope, keyring: Keyring, scrubber: Scrubber): VariablesPort => ({
  resolve: async (names) => {
    const resolved = await resolveVariables(db, keyring, teamId, names);
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
 * Writes engine events in order, batched, off the engine's path; `flush` waits for all.
 * Step output is not repeated here: it is on the step rows.
 */
export const runEventLog = (scope: Scope, firstSeq: number, log: Logger, scrubber: Scrubber, notify: () => void) => {
  let seq = firstSeq;
  let pending: { type: string; payload: Record<string, unknown> }[] = [];
  let chain: Promise<void> = Promise.resolve();
  const drain = () => {
    const batch = pending;
    pending = [];
    chain = chain
      .then(async () => {
        seq = await appendRunEvents(scope.db, scope.teamId, scope.runId, seq, batch);
        notify();
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
