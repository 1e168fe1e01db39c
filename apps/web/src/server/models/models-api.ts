/** What runs each model-access operation (contract/models.types.ts), on both surfaces. */
import { modelOperations } from "../contract/models.types";
import { implement } from "../api/implement";
import { listTeamModelAccess, removeTeamModelAccess, setTeamModelAccess } from "./model-operations";

export const modelsApi = implement(modelOperations, {
  list: ({ db, caller }) => listTeamModelAccess(db, caller),
  set: ({ db, keyring, caller }, input) => setTeamModelAccess(db, keyring(), caller, input),
  remove: ({ db, caller }, input) => removeTeamModelAccess(db, caller, input),
});
