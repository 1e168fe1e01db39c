/**
 * One sandbox: what a series of sandboxed processes share (the level, the step uid,
 * a private HOME and temp folder, the workspace and extra binds, one owner tag) and the one
 * way to undo it. `switchyard run` opens one for a run, the hand-run proxy's Bash one for
 * its life, and the worker one per agent step. `close()` goes in the order a step cannot
 * exploit (docs/sandbox.md, "When a run ends"): every process carrying the owner tag is
 * killed and confirmed gone, then a lent workspace is given back, then the sandbox's folder
 * is removed by descriptor.
 */
import { chmod, mkdtemp, realpath, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { AppError } from "../errors";
import { findSandboxHost, type FindSandboxHostOptions } from "./find-sandbox-host";
import { removeFolder } from "./fd-tree";
import { lendTree, type LentTree } from "./lend-tree";
import { makeStepFolders, type StepFolders } from "./make-step-folders";
import { DEFAULT_STEP_UID_BASE, pickStepUid } from "./pick-step-uid";
import { trackOwner } from "./process-ledger";
import { reapOwner } from "./reap-owner";
import { runSandboxed, type RunSandboxedOptions } from "./run-sandboxed";
import {
  SANDBOX_PATHS,
  type SandboxBind,
  type SandboxHost,
  type SandboxLevel,
  type SandboxResult,
  type SandboxSpec,
} from "./sandbox-types";
import { startSandboxed, type SandboxProcess, type StartOptions } from "./start-sandboxed";

/** How the level is known: from the worker's boot self-test, or found now. */
type LevelSource =
  { host: SandboxHost } | Pick<FindSandboxHostOptions, "mode" | "optOut" | "subject" | "tools">;

type SandboxOptions = {
  /**
   * Tag of every process of the sandbox; `close()` reaps it and its sub-owners
   * (`<ownerId>/<name>`). One per step in the worker (e.g. `<worker>/<run>/<step>`).
   */
  ownerId: string;
  level: LevelSource;
  /**
   * Where the sandbox's folder is made: the caller's own, traversable by step uids (0711).
   * @default os.tmpdir()
   */
  scratchDir?: string;
  /**
   * Start of the folder's name.
   * @default "switchyard-"
   */
  prefix?: string;
  /** The step uid at `strict` (the worker's, from its pool); else the first free one from `stepUidBase`. */
  uid?: number;
  /**
   * The first uid tried when `uid` is not given.
   * @default DEFAULT_STEP_UID_BASE (61_000)
   */
  stepUidBase?: number;
  /** The uid is this sandbox's alone while it is open: `close()` also kills whatever runs as it. */
  ownsUid?: boolean;
  /** A folder of the caller's bound at /workspace instead of a private one. */
  workspace?: string;
  /**
   * At `strict`, lend `workspace` to the step uid (so it can write there) for the whole
   * sandbox, or only while a process of the sandbox runs (the caller writes in between).
   */
  lendWorkspace?: "while-open" | "while-running";
  /** Bound into every process (e.g. a config file read-only); each process may add its own. */
  binds?: SandboxBind[];
  /**
   * Network access for every process that does not say.
   * @default false
   */
  network?: boolean;
  /** Told once, as soon as the level is known, before folders are made or anything is lent. */
  onLevel?: (level: SandboxLevel, uid: number | undefined, warnings: string[]) => void;
};

/** A process of the sandbox: the sandbox supplies its folders, uid and owner tag. */
type SandboxedProcessSpec = Omit<
  SandboxSpec,
  "workspace" | "home" | "tmp" | "uid" | "gid" | "network"
> & { network?: boolean };

export type Sandbox = {
  ownerId: string;
  /** The host its processes start on, tagged with the sandbox's owner id. */
  host: SandboxHost;
  level: SandboxLevel;
  uid: number | undefined;
  /** Host paths: the sandbox's own folder (`root`), the workspace, HOME and temp folder. */
  folders: StepFolders;
  /** The workspace, HOME and temp folder as its processes see them. */
  paths: { workspace: string; home: string; tmp: string };
  /** Where a bound path appears to the sandbox's processes (its host path at level `none`). */
  pathInside: (bind: SandboxBind) => string;
  run: (spec: SandboxedProcessSpec, options?: RunSandboxedOptions) => Promise<SandboxResult>;
  start: (spec: SandboxedProcessSpec, options?: StartOptions) => Promise<SandboxProcess>;
  /**
   * Reaps, gives back, removes (see above). Fails, keeping the folder and the lent workspace,
   * while a process of the sandbox survives; it can be called again.
   */
  close: () => Promise<void>;
};

const realFolder = async (given: string) => {
  const full = path.resolve(given);
  const info = await stat(full).catch(() => undefined);
  if (!info?.isDirectory())
    throw new AppError("USER.INPUT.MISSING_FILE", `workspace ${full} is not a folder`);
  return realpath(full);
};

/**
 * Lends a folder to a uid while anyone holds it; the last to let go gives it back, and a
 * new holder waits until that is done.
 */
const lender = (folder: string, uid: number) => {
  let lent: Promise<LentTree> | undefined;
  let returning: Promise<void> = Promise.resolve();
  let holders = 0;
  const giveBack = () => {
    const current = lent;
    lent = undefined;
    if (current)
      returning = returning.then(() =>
        current.then(
          (tree) => tree.giveBack(),
          () => undefined, // a lend that failed gave back what it had taken
        ),
      );
    return returning;
  };
  return {
    hold: async () => {
      holders++;
      lent ??= returning.then(() => lendTree(folder, { uid }));
      try {
        await lent;
      } catch (error) {
        holders--;
        if (holders === 0) lent = undefined;
        throw error;
      }
    },
    letGo: async () => {
      holders--;
      if (holders === 0) await giveBack();
    },
    giveBack,
  };
};

/** Opens a sandbox: its folder, its step uid and the way to start processes in it. */
export const openSandbox = async (options: SandboxOptions): Promise<Sandbox> => {
  const { ownerId } = options;
  const given = options.workspace === undefined ? undefined : await realFolder(options.workspace);
  const root = await mkdtemp(
    path.join(options.scratchDir ?? tmpdir(), options.prefix ?? "switchyard-"),
  );
  let uid: number | undefined;
  let lending: ReturnType<typeof lender> | undefined;
  let closed = false;
  let closing: Promise<void> | undefined;
  // Its processes are counted, so a sandbox whose processes all ended with their PID
  // namespace closes without a scan of /proc.
  const untrack = trackOwner(ownerId);
  const close = () => {
    closed = true;
    closing ??= (async () => {
      const left = await reapOwner(ownerId, { uid: options.ownsUid ? uid : undefined });
      if (left.length === 0) untrack();
      if (left.length > 0)
        throw new AppError(
          "SYSTEM.SANDBOX_UNAVAILABLE",
          `processes ${left.join(", ")} of ${ownerId} did not end; ${given === undefined ? "" : `${given} was not given back and `}${root} was kept`,
        );
      try {
        await lending?.giveBack();
      } finally {
        await removeFolder(root);
      }
    })().catch((error: unknown) => {
      closing = undefined;
      throw error;
    });
    return closing;
  };

  try {
    // Traversable, not listable: the self-test's probe and the steps reach their folders in it.
    await chmod(root, 0o711);
    const level = options.level;
    const wantsUid =
      process.getuid?.() === 0 &&
      ("host" in level
        ? level.host.level === "strict"
        : level.mode === "auto" || level.mode === "strict");
    const candidate = wantsUid
      ? (options.uid ?? pickStepUid(options.stepUidBase ?? DEFAULT_STEP_UID_BASE))
      : undefined;
    const found =
      "host" in level
        ? level.host
        : await findSandboxHost({ ...level, ownerId, scratchDir: root, probeUid: candidate });
    const host: SandboxHost = { ...found, ownerId };
    uid = host.level === "strict" ? candidate : undefined;
    options.onLevel?.(host.level, uid, host.warnings);
    const own = await makeStepFolders(root, uid === undefined ? undefined : { uid });
    const folders = { ...own, workspace: given ?? own.workspace };
    if (given !== undefined && uid !== undefined && options.lendWorkspace !== undefined) {
      lending = lender(given, uid);
      if (options.lendWorkspace === "while-open") await lending.hold();
    }
    const perProcess = options.lendWorkspace === "while-running" ? lending : undefined;
    const confined = host.level !== "none";

    const specOf = (spec: SandboxedProcessSpec): SandboxSpec => {
      if (closed) throw new AppError("SYSTEM.SANDBOX_UNAVAILABLE", `sandbox ${ownerId} is closed`);
      return {
        ...spec,
        workspace: folders.workspace,
        home: folders.home,
        tmp: folders.tmp,
        uid,
        network: spec.network ?? options.network ?? false,
        binds: [...(options.binds ?? []), ...(spec.binds ?? [])],
      };
    };
    const run = async (spec: SandboxedProcessSpec, runOptions?: RunSandboxedOptions) => {
      const full = specOf(spec);
      await perProcess?.hold();
      try {
        return await runSandboxed(host, full, runOptions);
      } finally {
        await perProcess?.letGo();
      }
    };
    const start = async (spec: SandboxedProcessSpec, startOptions?: StartOptions) => {
      const full = specOf(spec);
      await perProcess?.hold();
      let proc: SandboxProcess;
      try {
        proc = await startSandboxed(host, full, startOptions);
      } catch (error) {
        await perProcess?.letGo();
        throw error;
      }
      if (!perProcess) return proc;
      const exited = proc.exited.finally(() => perProcess.letGo());
      void exited.catch(() => undefined);
      return { ...proc, exited, stop: () => proc.stop().then(() => exited) };
    };
    return {
      ownerId,
      host,
      level: host.level,
      uid,
      folders,
      paths: confined
        ? { workspace: SANDBOX_PATHS.workspace, home: SANDBOX_PATHS.home, tmp: SANDBOX_PATHS.tmp }
        : { workspace: folders.workspace, home: folders.home, tmp: folders.tmp },
      pathInside: (bind) => (confined ? (bind.target ?? bind.path) : bind.path),
      run,
      start,
      close,
    };
  } catch (error) {
    // What failed is what the caller needs to hear; the folder goes whatever happens.
    await close().catch(() => undefined);
    throw error;
  }
};
