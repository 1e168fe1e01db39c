import {
  deleteTeamVariable,
  listTeamVariables,
  secretLanesInput,
  setTeamSecretLanes,
  setTeamVariable,
  setVariableInput,
  teamLaneNames,
  variableNameInput,
} from "../../variables/variable-operations";
import { router, teamProcedure } from "../init";

export const variablesRouter = router({
  /** Names, plain values and each secret's lanes; a secret's value is never returned. */
  list: teamProcedure.query(({ ctx }) => listTeamVariables(ctx.db, ctx)),
  /** The team's lanes, which a secret may be opened to. */
  lanes: teamProcedure.query(({ ctx }) => teamLaneNames(ctx.db, ctx)),
  set: teamProcedure.input(setVariableInput).mutation(({ ctx, input }) => setTeamVariable(ctx.db, ctx.keyring(), ctx, input)),
  /** The lanes whose runs may open a secret. */
  setLanes: teamProcedure
    .input(variableNameInput.extend(secretLanesInput.shape))
    .mutation(({ ctx, input }) => setTeamSecretLanes(ctx.db, ctx, input)),
  delete: teamProcedure.input(variableNameInput).mutation(({ ctx, input }) => deleteTeamVariable(ctx.db, ctx, input)),
});
