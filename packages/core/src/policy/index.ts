export {
  ALL_LANES,
  laneTable,
  mayCall,
  mayCancel,
  mayReachConnector,
  maySave,
  mayStart,
  mayUseSecret,
} from "./lane-policy";
export type { ConnectorRule, LaneTable, Role, SecretRule } from "./lane-policy";
export { calleeNames, resolveCalleeName } from "./callee-names";
export { checkRunReach, collectRunReach } from "./run-reach";
export type { CalleeSource, ReachedWorkflow } from "./run-reach";
export { roleAtLeast } from "./roles";
