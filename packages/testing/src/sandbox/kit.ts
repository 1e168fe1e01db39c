/**
 * Shared fixtures of the sandbox tests: a detected host, fresh private folders laid out
 * as the worker lays them out, and a /proc probe for tagged processes. Not product code.
 */
import { randomBytes } from "node:crypto";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  detectSandbox,
  makeStepFolders,
  OWNER_TAG,
  pidsWithEnv,
  type SandboxHost,
  type SandboxLevel,
  type SandboxSpec,
} from "@switchyard/core/sandbox";

/** The stand-in worker the crash tests start and SIGKILL: `node --import tsx HOLD_STEP '<json>'`. */
export const HOLD_STEP = fileURLToPath(new URL("./hold-step.ts", import.meta.url));

export const isRoot = process.getuid?.() === 0;

export type StepDirs = { root: string; workspace: string; home: string; tmp: string };

/** A run folder as the worker makes it, through the module's own helper. */
export const makeStepDirs = async (): Promise<StepDirs> =>
  makeStepFolders(await mkdtemp(path.join(tmpdir(), "sbx-test-")));

export const removeStepDirs = (dirs: StepDirs) => rm(dirs.root, { recursive: true, force: true });

export const detectForTest = async (
  uid: number,
  mode: "auto" | SandboxLevel = "auto",
): Promise<SandboxHost> => {
  const scratch = await mkdtemp(path.join(tmpdir(), "sbx-scratch-"));
  await chmod(scratch, 0o711);
  try {
    return await detectSandbox({
      mode,
      ownerId: newOwnerId(),
      scratchDir: scratch,
      probeUid: isRoot ? uid : undefined,
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
};

export const newOwnerId = () => `test-${randomBytes(6).toString("hex")}`;

/** The same host under a fresh owner id, so a test can find exactly its own processes. */
export const withOwner = (host: SandboxHost): SandboxHost => ({ ...host, ownerId: newOwnerId() });

export const spec = (
  dirs: StepDirs,
  uid: number,
  argv: string[],
  extra: Partial<SandboxSpec> = {},
): SandboxSpec => ({
  argv,
  workspace: dirs.workspace,
  home: dirs.home,
  tmp: dirs.tmp,
  network: false,
  uid: isRoot ? uid : undefined,
  killGraceMs: 1000,
  ...extra,
});

export const sh = (script: string) => ["/bin/sh", "-c", script];

export const ownedBy = (ownerId: string) => pidsWithEnv(OWNER_TAG, ownerId);

/** Polls until no process carries the owner's tag, or the deadline passes. */
export const waitNoneLeft = async (ownerId: string, deadlineMs = 5000): Promise<number[]> => {
  const end = Date.now() + deadlineMs;
  let left = ownedBy(ownerId);
  while (left.length > 0 && Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    left = ownedBy(ownerId);
  }
  return left;
};
