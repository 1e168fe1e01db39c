/** What runs the system operations (contract/system.types.ts): the workers whose heartbeat is fresh, with the sandbox level each runs steps at. */
import { listWorkers } from "@switchyard/core/runs";
import { systemOperations } from "../contract/system.types";
import { implement } from "../api/implement";

export const systemApi = implement(systemOperations, {
  workers: ({ redis, prefix }) => listWorkers(redis(), prefix),
});
