/** What runs the team overview's operation (contract/overview.types.ts), for every member. */
import { overviewOperations } from "../contract/overview.types";
import { implement } from "../api/implement";
import { getOverview } from "./get-overview";

export const overviewApi = implement(overviewOperations, {
  get: ({ db, caller }, input) => getOverview(db, caller, input),
});
