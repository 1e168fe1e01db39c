/**
 * The step sandbox for `switchyard run` on a person's machine: finds the level once at
 * start (as root `strict` with a step uid of its own, otherwise `namespaces`; `none` only
 * when asked for), says which on stderr, and runs every process of the run through it with
 * the person's workspace folder bound read-write at /workspace and a private HOME and temp
 * folder. At `strict` the workspace is lent to the step uid for the run and given back at
 * the end. `close()` undoes everything; callers run it in `finally`, once the engine has
 * ended every step. It first makes sure no process of the run is left (by the run's owner
 * tag), then gives the workspace back and removes the temp folders by descriptor.
 */
import { existsSync } from "node:fs";
import { chmod, mkdtemp, realpath, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { AppError } from "@switchyard/core/errors";
import {
  DEFAULT_STEP_UID_BASE,
  DEFAULT_TOOLS,
  detectSandbox,
  lendTree,
  makeStepFolders,
  pickStepUid,
  reapOwner,
  removeFolder,
  SANDBOX_LEVELS,
  type LentTree,
  type SandboxHost,
  type SandboxLevel,
} from "@switchyard/core/sandbox";
import type { Io } from "./validate-command";

export type SandboxMode = "auto" | SandboxLevel;

export type LocalSandbox = {
  host: SandboxHost;
  uid: number | undefined;
  workspace: string;
  home: string;
  tmp: string;
  close: () => Promise<void>;
};

export type LocalSandboxOptions = {
  mode: SandboxMode;
  workspace: string;
  /** First uid of the range the step uid is picked from (as root). */
  stepUidBase?: number;
  io: Io;
};

export const SANDBOX_MODES: readonly SandboxMode[] = ["auto", ...SANDBOX_LEVELS];

export const parseSandboxMode = (value: string, from: string): SandboxMode => {
  if ((SANDBOX_MODES as readonly string[]).includes(value)) return value as SandboxMode;
  throw new AppError(
    "USER.INPUT.VALIDATION_FAILED",
    `${from} must be one of ${SANDBOX_MODES.join(", ")}, got "${value}"`,
  );
};

/** `SWITCHYARD_LOCAL_STEP_UID_BASE`, apart from the worker's range (SWITCHYARD_STEP_UID_BASE). */
export const stepUidBaseFrom = (env: NodeJS.ProcessEnv): number => {
  const raw = env.SWITCHYARD_LOCAL_STEP_UID_BASE;
  if (raw === undefined || raw === "") return DEFAULT_STEP_UID_BASE;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1000 || n > 2 ** 31 - 100)
    throw new AppError(
      "USER.INPUT.VALIDATION_FAILED",
      `SWITCHYARD_LOCAL_STEP_UID_BASE must be a whole number from 1000, got "${raw}"`,
    );
  return n;
};

const HOW_TO = [
  "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)",
  "or run without confinement: --sandbox none (or SWITCHYARD_SANDBOX=none)",
].join(", ");

const describe = (host: SandboxHost, uid: number | undefined) => {
  switch (host.level) {
    case "strict":
      return `sandbox: strict (uid ${uid ?? "?"})`;
    case "namespaces":
      return "sandbox: namespaces";
    case "none":
      return "sandbox: NONE: steps run UNCONFINED, as you, and can read and change everything you can (--sandbox none)";
    default: {
      const never: never = host.level;
      return String(never);
    }
  }
};

export const openLocalSandbox = async (options: LocalSandboxOptions): Promise<LocalSandbox> => {
  const given = path.resolve(options.workspace);
  const info = await stat(given).catch(() => undefined);
  if (!info?.isDirectory())
    throw new AppError("USER.INPUT.MISSING_FILE", `workspace ${given} is not a folder`);
  const workspace = await realpath(given);
  const scratch = await mkdtemp(path.join(tmpdir(), "switchyard-run-"));
  const ownerId = `switchyard-run-${process.pid}`;
  let lent: LentTree | undefined;
  const close = async () => {
    const left = await reapOwner(ownerId);
    if (left.length > 0)
      throw new AppError(
        "SYSTEM.SANDBOX_UNAVAILABLE",
        `processes ${left.join(", ")} of this run did not end; ${workspace} was not given back and ${scratch} was kept`,
      );
    try {
      await lent?.giveBack();
    } finally {
      await removeFolder(scratch);
    }
  };
  try {
    await chmod(scratch, 0o711);
    const asRoot = process.getuid?.() === 0;
    if (options.mode === "strict" && !asRoot)
      throw new AppError(
        "USER.INPUT.VALIDATION_FAILED",
        "sandbox level strict runs steps as a uid of their own and needs root; use auto or namespaces",
      );
    const wantsUid = asRoot && (options.mode === "auto" || options.mode === "strict");
    const probeUid = wantsUid ? pickStepUid(options.stepUidBase) : undefined;
    if (options.mode !== "none" && !existsSync(DEFAULT_TOOLS.bwrap))
      throw new AppError(
        "SYSTEM.SANDBOX_UNAVAILABLE",
        `bubblewrap (${DEFAULT_TOOLS.bwrap}) is not installed, and every step runs in its sandbox; ${HOW_TO}`,
      );
    let host: SandboxHost;
    try {
      host = await detectSandbox({
        mode: options.mode,
        ownerId,
        scratchDir: scratch,
        probeUid,
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new AppError(
        "SYSTEM.SANDBOX_UNAVAILABLE",
        `the step sandbox does not work here (${reason}); ${HOW_TO}`,
        { cause: error },
      );
    }
    const uid = host.level === "strict" ? probeUid : undefined;
    options.io.err(`${describe(host, uid)}\n`);
    // At `none` the line above already says it all.
    if (host.level !== "none")
      for (const warning of host.warnings) options.io.err(`sandbox warning: ${warning}\n`);
    const folders = await makeStepFolders(
      path.join(scratch, "step"),
      uid === undefined ? undefined : { uid },
    );
    if (uid !== undefined) lent = await lendTree(workspace, { uid });
    return { host, uid, workspace, home: folders.home, tmp: folders.tmp, close };
  } catch (error) {
    await close();
    throw error;
  }
};
