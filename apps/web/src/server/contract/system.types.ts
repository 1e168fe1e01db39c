/**
 * Response shapes of the system operations, for the tRPC procedures: the workers' own
 * heartbeat schema (core's), as the dashboard reads it.
 */
import { z } from "zod";
import { workerInfoSchema } from "@switchyard/core/runs";
import { operation } from "./operation";

/** Workers whose heartbeat is fresh, with the sandbox level each runs steps at. */
export const workerList = z.array(workerInfoSchema);

export const systemOperations = {
  workers: operation({
    kind: "query",
    access: "team",
    output: workerList,
    rest: { only: "the dashboard's view of the installation's workers" },
  }),
};
