/**
 * One run's writes, in order, each flush one statement (writeRunBatch): the events the
 * engine emits ride along with the next write that must be durable (a step run opened or
 * closed, the checkpoint), or go on their own a moment later when nothing else is pending.
 * Writes that change where the run stands are awaited by the engine; events are not.
 *
 * Nothing is written once another worker holds the run: the write that finds so throws
 * EXECUTION.RUN_TAKEN_OVER, and this worker stops the run. A write the database cannot take
 * because it is unreachable waits for it (up to `outageMs`, then SYSTEM.DATABASE_UNAVAILABLE,
 * which leaves the run to be resumed later); the writes are safe to send twice. A step end
 * the database refuses closes the row as failed instead (EXECUTION.OUTPUT_NOT_STORED);
 * events that cannot be stored are dropped with a log line, never blocking the run's progress.
 */
import { AppError, isAppError } from "@switchyard/core/errors";
import type { RunEventType } from "@switchyard/core/run-events";
import type { Scrubber } from "@switchyard/core/secrets";
import {
  whileDatabaseUnavailable,
  writeRunBatch,
  type Db,
  type RunBatch,
  type StepRunClose,
  type StepRunOpen,
  type StepRunStarted,
} from "@switchyard/db";
import type { Logger } from "./logger";

/** How long an event waits for a write to ride along with; live views see it no later. */
const EVENT_DELAY_MS = 10;

type Primary = Pick<RunBatch, "open" | "started" | "close" | "checkpoint">;

export type RunWriter = ReturnType<typeof createRunWriter>;

const takenOver = () =>
  new AppError(
    "EXECUTION.RUN_TAKEN_OVER",
    "another worker has taken this run over; this worker stops it",
  );

/** The database stayed unreachable past the outage allowance. */
const unreachable = (error: unknown) =>
  isAppError(error) && error.code === "SYSTEM.DATABASE_UNAVAILABLE";

/** An error's last line, short: a database error can carry the whole statement before it. */
const briefly = (error: unknown) => {
  const text = error instanceof Error ? error.message : String(error);
  const last = text.trim().split("\n").pop() ?? "";
  return last.length > 300 ? `${last.slice(0, 300)}…` : last;
};

export const createRunWriter = (deps: {
  db: Db;
  log: Logger;
  teamId: string;
  runId: string;
  workerId: string;
  /** the sequence number of the run's next event */
  firstSeq: number;
  scrubber: Scrubber;
  /** Tells live views something of the run was recorded. */
  notify: () => void;
  /** How long a database outage may last before a write fails (SWITCHYARD_DB_OUTAGE_MS). */
  outageMs: number;
}) => {
  const scope = { teamId: deps.teamId, runId: deps.runId, workerId: deps.workerId };
  let seq = deps.firstSeq;
  let events: RunBatch["events"] = [];
  let traceId: string | undefined;
  let chain: Promise<unknown> = Promise.resolve();
  let scheduled = false;
  const outage = {
    outageMs: deps.outageMs,
    onRetry: (error: unknown, tries: number) => {
      if (tries === 1)
        deps.log.warn("the database is unreachable; the run's writes wait for it", {
          runId: deps.runId,
          error: deps.scrubber.scrub(briefly(error)),
        });
    },
  };
  const writeBatch = (batch: RunBatch) =>
    whileDatabaseUnavailable(() => writeRunBatch(deps.db, scope, batch), outage);

  /** Writes `primary` with every pending event; a batch whose events are refused is written without them. */
  const write = async (primary: Primary) => {
    const batch = { ...primary, events, ...(traceId === undefined ? {} : { traceId }) };
    events = [];
    try {
      const { held } = await writeBatch(batch);
      if (batch.traceId === traceId) traceId = undefined;
      deps.notify();
      return held;
    } catch (error) {
      if (batch.events.length === 0 || unreachable(error)) {
        events = [...batch.events, ...events];
        throw error;
      }
      const held = await writeBatch({
        ...primary,
        events: [],
        ...(batch.traceId === undefined ? {} : { traceId: batch.traceId }),
      }).catch((again: unknown) => {
        // The database, not the events: keep them for the next write.
        events = [...batch.events, ...events];
        throw again;
      });
      deps.log.error("could not record run events", {
        runId: deps.runId,
        count: batch.events.length,
        error: deps.scrubber.scrub(briefly(error)),
      });
      if (batch.traceId === traceId) traceId = undefined;
      deps.notify();
      return held.held;
    }
  };

  /** Runs `task` after every write queued before it. */
  const queued = <T>(task: () => Promise<T>): Promise<T> => {
    const next = chain.then(task, task);
    chain = next.catch(() => undefined);
    return next;
  };

  const flushEvents = () =>
    queued(async () => {
      scheduled = false;
      if (events.length === 0 && traceId === undefined) return;
      await write({}).catch((error: unknown) =>
        deps.log.error("could not record run events", {
          runId: deps.runId,
          error: deps.scrubber.scrub(briefly(error)),
        }),
      );
    });

  const event = (type: RunEventType, payload: Record<string, unknown>) => {
    events.push({ seq: seq++, type, payload });
    if (!scheduled) {
      // A moment later, so the write the engine makes next (a step opened or closed, the
      // checkpoint) usually takes them along instead.
      scheduled = true;
      setTimeout(() => void flushEvents(), EVENT_DELAY_MS);
    }
  };

  return {
    /** A run event (already scrubbed), written with the next write. */
    event,
    /** The run's trace id, written with the next write. */
    traceId: (id: string) => {
      traceId = id;
    },
    /** Opens the row of an attempt that starts now. */
    open: (row: StepRunOpen) =>
      queued(async () => {
        if (!(await write({ open: row }))) throw takenOver();
      }),
    /** Stores what an open agent attempt started with (its request, its workspace snapshot). */
    started: (row: StepRunStarted) =>
      queued(async () => {
        if (!(await write({ started: row }))) throw takenOver();
      }),
    /**
     * Closes an attempt's row; one whose end cannot be stored is closed as failed, and that
     * is thrown as EXECUTION.OUTPUT_NOT_STORED.
     */
    close: (row: StepRunClose) =>
      queued(async () => {
        let held: boolean;
        try {
          held = await write({ close: row });
        } catch (error) {
          // Not the row: the database. The run is left to be resumed once it is back.
          if (unreachable(error)) throw error;
          const message = `the step's output could not be stored: ${deps.scrubber.scrub(briefly(error))}`;
          const failed: StepRunClose = {
            id: row.id,
            status: "failed",
            exitCode: null,
            stdout: "",
            stderr: "",
            output: "",
            errorCode: "EXECUTION.OUTPUT_NOT_STORED",
            errorMessage: message,
            onlyIfRunning: true,
          };
          await write({ close: failed }).catch((closing: unknown) =>
            deps.log.error("a step run could not be closed", {
              runId: deps.runId,
              stepRunId: row.id,
              error: deps.scrubber.scrub(briefly(closing)),
            }),
          );
          throw new AppError("EXECUTION.OUTPUT_NOT_STORED", message, { cause: error });
        }
        if (!held) throw takenOver();
      }),
    /** Saves the checkpoint (already scrubbed) while this worker holds the run. */
    checkpoint: (checkpoint: unknown) =>
      queued(async () => {
        if (!(await write({ checkpoint }))) throw takenOver();
      }),
    /** Waits for every write so far, the pending events written. */
    flush: async () => {
      if (events.length > 0 || traceId !== undefined) void flushEvents();
      await chain;
    },
  };
};
