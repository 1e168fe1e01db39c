/**
 * A run's stored events as Server-Sent Events, for the run page and GET /api/v1/runs/{id}/events:
 * each event once, in seq order, with `id: <seq>` and the event's type as its name
 * (`event: run.started`, so `addEventListener("run.started")` hears it; the data keeps the
 * type too), so a client that reconnects with Last-Event-ID (or `?after=`) gets exactly what
 * it missed. Events are read from Postgres, woken by the workers' "run changed" notices (and
 * a slow poll if those are lost). The caller's access is checked again every few seconds
 * (a session ended, a member removed, a token revoked). The stream ends with `event: end`
 * once the run has ended and every event of it was sent, or once the caller may no longer
 * read it, its data saying which.
 */
import type { AppError } from "@switchyard/core/errors";
import { RUN_EVENT_TYPES } from "@switchyard/core/run-events";
import { listRunEventsAfter, runStatusOf, type Db } from "@switchyard/db";

const KEEP_ALIVE_MS = 15_000;
const POLL_MS = 2_000;
/** How often a live stream checks that its caller may still read the run. */
export const ACCESS_RECHECK_MS = 5_000;
const ENDED = new Set(["succeeded", "failed", "cancelled"]);
const NAMED: ReadonlySet<string> = new Set(RUN_EVENT_TYPES);

/** The `event:` line of a stored event: its type, when it is one of the run event types (anything else stays an unnamed message). */
const nameLine = (type: string) => (NAMED.has(type) ? `event: ${type}\n` : "");

export type RunEventStreamOptions = {
  db: Db;
  teamId: string;
  runId: string;
  /** the last seq the client has (Last-Event-ID or ?after=); 0 for everything */
  after: number;
  signal: AbortSignal;
  /** calls back when a worker records something of the run; returns the function that stops it */
  listen?: (runId: string, onChange: () => void) => () => void;
  /** also send `event: update` (no id) on each notice, for views that refetch the run's steps */
  updates?: boolean;
  /** the caller's access, checked again every ACCESS_RECHECK_MS: the refusal that ends the stream, or undefined */
  access: () => Promise<AppError | undefined>;
};

/** The seq to resume after: Last-Event-ID wins over ?after=; anything else is 0. */
export const resumeSeq = (headers: Headers, after: string | number | null | undefined) => {
  for (const candidate of [headers.get("last-event-id"), after]) {
    const n = Number(candidate);
    if (
      candidate !== null &&
      candidate !== undefined &&
      candidate !== "" &&
      Number.isSafeInteger(n) &&
      n >= 0
    )
      return n;
  }
  return 0;
};

export const runEventStream = (options: RunEventStreamOptions): Response => {
  const { db, teamId, runId, signal } = options;
  const encoder = new TextEncoder();
  let closed = false;
  let wake = () => undefined as void;
  let unlisten = () => undefined as void;
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  const stop = () => {
    closed = true;
    unlisten();
    if (keepAlive) clearInterval(keepAlive);
    wake();
  };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (chunk: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(chunk));
        } catch {
          stop();
        }
      };
      let notified = false;
      unlisten =
        options.listen?.(runId, () => {
          notified = true;
          if (options.updates) send("event: update\ndata: {}\n\n");
          wake();
        }) ?? unlisten;
      keepAlive = setInterval(() => send(": keep-alive\n\n"), KEEP_ALIVE_MS);
      signal.addEventListener("abort", stop);
      send("retry: 3000\n\n");
      void (async () => {
        let seq = options.after;
        let checkedAt = Date.now();
        try {
          while (!closed) {
            if (Date.now() - checkedAt >= ACCESS_RECHECK_MS) {
              const refused = await options.access();
              checkedAt = Date.now();
              if (refused) {
                send(
                  `event: end\ndata: ${JSON.stringify({ reason: "access_ended", error: { code: refused.code, message: refused.userMessage } })}\n\n`,
                );
                break;
              }
            }
            notified = false;
            // The status is read before the events: a run that has ended has stored all of them.
            const status = await runStatusOf(db, teamId, runId);
            const events = await listRunEventsAfter(db, teamId, runId, seq, 500);
            for (const event of events) {
              send(
                `id: ${event.seq}\n${nameLine(event.type)}data: ${JSON.stringify({ seq: event.seq, type: event.type, payload: event.payload, at: event.createdAt })}\n\n`,
              );
              seq = event.seq;
            }
            if (events.length === 500) continue;
            if (status === null || ENDED.has(status)) {
              send(`event: end\ndata: ${JSON.stringify({ reason: "run_ended", status })}\n\n`);
              break;
            }
            if (notified) continue;
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, POLL_MS);
              wake = () => {
                clearTimeout(timer);
                resolve();
              };
            });
          }
        } catch (error) {
          console.error(
            "switchyard-web: run event stream failed",
            error instanceof Error ? error.message : error,
          );
        } finally {
          stop();
          try {
            controller.close();
          } catch {
            // already closed
          }
        }
      })();
    },
    cancel() {
      stop();
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
};
