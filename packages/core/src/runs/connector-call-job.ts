/**
 * The contract of the connector console: an admin's call of one connector tool by hand,
 * made by the web app as a job for a worker (which alone holds connector processes and
 * credentials) and answered with the tool's result, scrubbed of the credential.
 */
import { z } from "zod";

/** The BullMQ queue the web app asks the worker to call a connector tool on. */
export const CONNECTOR_CALL_QUEUE = "connector-calls";

/** The data of a connector call job. */
export const connectorCallJobSchema = z.object({
  teamId: z.string().min(1),
  /** The admin who asked: a connector used with each member's account uses theirs. */
  userId: z.string().min(1),
  connector: z.string().min(1),
  tool: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()),
  /** The lane the call is made as (its tool rules apply). */
  lane: z.string().min(1),
});
export type ConnectorCallJob = z.infer<typeof connectorCallJobSchema>;

/** What a connector call job returns. */
export const connectorCallResultSchema = z.object({
  isError: z.boolean(),
  content: z.array(z.record(z.string(), z.unknown())),
  structuredContent: z.record(z.string(), z.unknown()).nullable(),
  durationMs: z.number(),
});
export type ConnectorCallResult = z.infer<typeof connectorCallResultSchema>;
