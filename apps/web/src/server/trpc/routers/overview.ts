import { overviewInput, overviewResponse } from "../../contract/overview.types";
import { getOverview } from "../../overview/get-overview";
import { router, teamProcedure } from "../init";

/** The team overview (the dashboard's landing page), for every member. */
export const overviewRouter = router({
  get: teamProcedure
    .input(overviewInput)
    .output(overviewResponse)
    .query(({ ctx, input }) => getOverview(ctx.db, ctx, input)),
});
