/** What runs each team-variable operation (contract/variables.types.ts), on both surfaces. */
import { variableOperations } from "../contract/variables.types";
import { implement } from "../api/implement";
import {
  deleteTeamVariable,
  listTeamVariables,
  setTeamSecretLanes,
  setTeamVariable,
  teamLaneNames,
} from "./variable-operations";

export const variablesApi = implement(variableOperations, {
  list: ({ db, caller }) => listTeamVariables(db, caller),
  lanes: ({ db, caller }) => teamLaneNames(db, caller),
  set: ({ db, keyring, caller }, input) => setTeamVariable(db, keyring(), caller, input),
  setLanes: ({ db, caller }, input) => setTeamSecretLanes(db, caller, input),
  delete: ({ db, caller }, input) => deleteTeamVariable(db, caller, input),
});
