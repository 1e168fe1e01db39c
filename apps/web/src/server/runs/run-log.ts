/**
 * A run's logs as a downloadable NDJSON file: one line for the run, one per step attempt
 * (its stdout, stderr and output as stored, already scrubbed), then every stored event in
 * seq order. Read a page at a time, so a long run does not sit in memory whole.
 */
import { AppError } from "@switchyard/core/errors";
import { getRun, listRunEventsAfter, type Db } from "@switchyard/db";

export const runLogResponse = async (db: Db, teamId: string, runId: string): Promise<Response> => {
  const run = await getRun(db, teamId, runId);
  if (!run) throw new AppError("NOT_FOUND", "run not found");
  const encoder = new TextEncoder();
  const line = (value: unknown) => encoder.encode(`${JSON.stringify(value)}\n`);
  let seq = 0;
  let head = true;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (head) {
        head = false;
        controller.enqueue(
          line({
            kind: "run",
            id: run.id,
            workflow: run.workflow.name,
            status: run.status,
            trigger: run.trigger,
            createdAt: run.createdAt,
            startedAt: run.startedAt,
            finishedAt: run.finishedAt,
            errorCode: run.errorCode,
            errorMessage: run.errorMessage,
          }),
        );
        for (const step of run.steps) {
          controller.enqueue(
            line({
              kind: "step",
              id: step.id,
              state: step.stateName,
              attempt: step.attempt,
              status: step.status,
              exitCode: step.exitCode,
              startedAt: step.startedAt,
              finishedAt: step.finishedAt,
              stdout: step.stdout,
              stderr: step.stderr,
              output: step.output,
              errorCode: step.errorCode,
              errorMessage: step.errorMessage,
            }),
          );
        }
        return;
      }
      const events = await listRunEventsAfter(db, teamId, runId, seq, 1000);
      for (const event of events)
        controller.enqueue(
          line({
            kind: "event",
            seq: event.seq,
            type: event.type,
            at: event.createdAt,
            payload: event.payload,
          }),
        );
      if (events.length < 1000) controller.close();
      else seq = events[events.length - 1]!.seq;
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "application/x-ndjson; charset=utf-8",
      "content-disposition": `attachment; filename="run-${run.id}.ndjson"`,
      "cache-control": "no-store",
    },
  });
};
