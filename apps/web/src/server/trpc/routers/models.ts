import { listTeamModelAccess, removeTeamModelAccess, setTeamModelAccess } from "../../models/model-operations";
import { modelAccessList, modelAccessResponse, modelVendorInput, removeModelAccessResponse, setModelAccessInput } from "../../contract/models.types";
import { router, teamProcedure } from "../init";

/**
 * How the team's agent steps reach models, one entry per vendor. Any member reads it
 * (never a key); admins set a vendor's key and endpoint, or remove its access.
 */
export const modelsRouter = router({
  list: teamProcedure.output(modelAccessList).query(({ ctx }) => listTeamModelAccess(ctx.db, ctx)),
  set: teamProcedure
    .input(setModelAccessInput)
    .output(modelAccessResponse)
    .mutation(({ ctx, input }) => setTeamModelAccess(ctx.db, ctx.keyring(), ctx, input)),
  remove: teamProcedure
    .input(modelVendorInput)
    .output(removeModelAccessResponse)
    .mutation(({ ctx, input }) => removeTeamModelAccess(ctx.db, ctx, input)),
});
