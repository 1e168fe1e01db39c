/**
 * The contract between whoever starts a run (web, API) and the worker that executes it:
 * the queue's name and the job's data. Job data carries ids only, never a secret or a
 * workflow body; the worker reads the rest from the database.
 */
import { z } from "zod";

/** The BullMQ queue runs are started on. */
export const RUN_QUEUE = "runs";

/** The data of a run job. */
export const runJobSchema = z.object({
  runId: z.string().min(1),
  teamId: z.string().min(1),
  /** W3C trace context of the request that started the run, so its trace continues. */
  traceparent: z
    .string()
    .regex(/^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/)
    .optional(),
});

export type RunJob = z.infer<typeof runJobSchema>;
