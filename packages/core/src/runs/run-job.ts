/**
 * The contract between whoever starts a run (web, API) and the worker that executes it:
 * the queue's name and the job's data. Job data carries ids only, never a secret or a
 * workflow body; the worker reads the rest from the database.
 */
import { z } from "zod";

export const RUN_QUEUE = "runs";

export const runJobSchema = z.object({
  runId: z.string().min(1),
  teamId: z.string().min(1),
});

export type RunJob = z.infer<typeof runJobSchema>;
