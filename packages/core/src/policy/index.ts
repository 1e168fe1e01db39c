export { laneTable, mayCall, mayCancel, maySave, mayStart, mayUseSecret } from "./lane-policy";
export type { LaneRule, LaneTable, Role, SecretRule } from "./lane-policy";
export { checkRunReach, collectRunReach } from "./run-reach";
export type { CalleeSource, ReachCheck, ReachedWorkflow, RunReach } from "./run-reach";
export { roleAtLeast } from "./roles";
