/**
 * Response shapes of the system operations, for the tRPC procedures: the workers' own
 * heartbeat schema (core's), as the dashboard reads it.
 */
import { z } from "zod";
import { workerInfoSchema } from "@switchyard/core/runs";

/** Workers whose heartbeat is fresh, with the sandbox level each runs steps at. */
export const workerList = z.array(workerInfoSchema);
