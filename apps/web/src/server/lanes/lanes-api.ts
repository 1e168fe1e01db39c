/** What runs each lane operation (contract/lanes.types.ts), on both surfaces. */
import { laneOperations } from "../contract/lanes.types";
import { implement } from "../api/implement";
import {
  createTeamLane,
  listTeamLanes,
  removeTeamLane,
  setTeamLaneApprovalRules,
  teamLaneApprovalRules,
  updateTeamLane,
} from "./lane-operations";

export const lanesApi = implement(laneOperations, {
  list: ({ db, caller }) => listTeamLanes(db, caller),
  create: ({ db, caller }, input) => createTeamLane(db, caller, input),
  update: ({ db, caller }, input) => updateTeamLane(db, caller, input),
  approvalRules: ({ db, caller }, input) => teamLaneApprovalRules(db, caller, input),
  setApprovalRules: ({ db, caller }, input) => setTeamLaneApprovalRules(db, caller, input),
  remove: ({ db, caller }, input) => removeTeamLane(db, caller, input),
});
