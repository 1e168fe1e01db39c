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
import {
  deleteVariableResponse,
  laneNames,
  secretLanesResponse,
  setVariableResponse,
  variableList,
} from "../../contract/variables.types";
import { router, teamProcedure } from "../init";

export const variablesRouter = router({
  /** Names, plain values and each secret's lanes; a secret's value is never returned. */
  list: teamProcedure.output(variableList).query(({ ctx }) => listTeamVariables(ctx.db, ctx)),
  /** The team's lanes, which a secret may be opened to. */
  lanes: teamProcedure.output(laneNames).query(({ ctx }) => teamLaneNames(ctx.db, ctx)),
  set: teamProcedure
    .input(setVariableInput)
    .output(setVariableResponse)
    .mutation(({ ctx, input }) => setTeamVariable(ctx.db, ctx.keyring(), ctx, input)),
  /** The lanes whose runs may open a secret. */
  setLanes: teamProcedure
    .input(variableNameInput.extend(secretLanesInput.shape))
    .output(secretLanesResponse)
    .mutation(({ ctx, input }) => setTeamSecretLanes(ctx.db, ctx, input)),
  delete: teamProcedure
    .input(variableNameInput)
    .output(deleteVariableResponse)
    .mutation(({ ctx, input }) => deleteTeamVariable(ctx.db, ctx, input)),
});
