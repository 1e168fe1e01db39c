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
