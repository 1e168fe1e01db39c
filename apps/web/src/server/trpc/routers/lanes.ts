import { createLaneBody, laneList, laneListing, laneNameInput, removeLaneResponse, updateLaneInput } from "../../contract/lanes.types";
import { createTeamLane, listTeamLanes, removeTeamLane, updateTeamLane } from "../../lanes/lane-operations";
import { router, teamProcedure } from "../init";

/**
 * The team's lanes: any member lists them with what names each; admins add them, change
 * who may save and start in them, and remove the ones nothing names.
 */
export const lanesRouter = router({
  list: teamProcedure.output(laneList).query(({ ctx }) => listTeamLanes(ctx.db, ctx)),
  create: teamProcedure
    .input(createLaneBody)
    .output(laneListing)
    .mutation(({ ctx, input }) => createTeamLane(ctx.db, ctx, input)),
  update: teamProcedure
    .input(updateLaneInput)
    .output(laneListing)
    .mutation(({ ctx, input }) => updateTeamLane(ctx.db, ctx, input)),
  remove: teamProcedure
    .input(laneNameInput)
    .output(removeLaneResponse)
    .mutation(({ ctx, input }) => removeTeamLane(ctx.db, ctx, input)),
});
