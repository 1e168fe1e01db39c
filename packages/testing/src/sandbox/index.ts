export {
  detectForTest,
  HOLD_STEP,
  isRoot,
  makeStepDirs,
  newOwnerId,
  ownedBy,
  removeStepDirs,
  sh,
  spec,
  waitNoneLeft,
  withOwner,
} from "./kit";
export type { StepDirs } from "./kit";
export { startLinkLocalListeners, tryConnectScript } from "./link-local-listeners";
export type { LinkLocalListeners, ListenTarget } from "./link-local-listeners";
export { buildCli, cliForOthers } from "./cli-for-others";
export { treeListing } from "./tree-listing";
export { startRacer, stopRacer } from "./racer";
export { PTY_DRIVER } from "./pty-driver";
export {
  asRoot,
  openPersonCli,
  PERSON,
  personFolder,
  runAsPerson,
  startAsPerson,
} from "./person-cli";
export type { PersonProcess, PersonRun } from "./person-cli";
