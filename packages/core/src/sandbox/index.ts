export { runProcess } from "./run-process";
export { runSandboxed } from "./run-sandboxed";
export type { RunSandboxedOptions } from "./run-sandboxed";
export { startSandboxed } from "./start-sandboxed";
export { useSpawnServer } from "./launch-process";
export { spawnServersOf } from "./spawn-server";
export type { SandboxProcess, StartOptions } from "./start-sandboxed";
export { detectSandbox } from "./detect-sandbox";
export type { DetectSandboxOptions } from "./detect-sandbox";
export { sweepLeftovers } from "./sweep-leftovers";
export { reapOwner, runOwnerId } from "./reap-owner";
export { trackOwner } from "./process-ledger";
export { removeFolder } from "./fd-tree";
export { listPids, pidsWithEnv } from "./proc-scan";
export { findSandboxHost } from "./find-sandbox-host";
export type { FindSandboxHostOptions } from "./find-sandbox-host";
export { openSandbox } from "./open-sandbox";
export { openStepLauncher } from "./open-step-launcher";
export type { StepLauncher } from "./open-step-launcher";
export type { Sandbox } from "./open-sandbox";
export { lendTree } from "./lend-tree";
export type { LentTree } from "./lend-tree";
export { assertTraversable } from "./prepare-step-dirs";
export { DEFAULT_STEP_UID_BASE, pickStepUid } from "./pick-step-uid";
export { createUidPool } from "./uid-pool";
export { BLOCKED_FROM_SANDBOXES, startNetworkFilter } from "./network-filter";
export type { NetworkFilter } from "./network-filter";
export type { UidPool } from "./uid-pool";
export { makeStepFolders } from "./make-step-folders";
export type { StepFolders } from "./make-step-folders";
export { buildLaunch, OWNER_TAG, SANDBOX_TAG } from "./build-launch";
export { DEFAULT_LIMITS, DEFAULT_TOOLS, SANDBOX_LEVELS, SANDBOX_PATHS } from "./sandbox-types";
export type {
  SandboxBind,
  SandboxExit,
  SandboxHost,
  SandboxLevel,
  SandboxLimits,
  SandboxResult,
  SandboxSpec,
  SandboxTools,
} from "./sandbox-types";
