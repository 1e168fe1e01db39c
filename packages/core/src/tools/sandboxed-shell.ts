/**
 * `Bash` in a sandbox of its own, for a proxy started by hand (`sandbox: "own"`): each
 * command runs through the step sandbox with the proxy's `root_dir` bound read-write as
 * the workspace and a private HOME and temp folder that live as long as the proxy. The
 * level is found once, on the first command, so the proxy's startup stays fast: `strict`
 * with a step uid of its own when the proxy runs as root (the folder is lent to that uid
 * while commands run), else `namespaces`. Without bubblewrap every command fails with a
 * message that says what to install.
 */
import { existsSync } from "node:fs";
import { chmod, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { AppError } from "../errors";
import {
  DEFAULT_STEP_UID_BASE,
  DEFAULT_TOOLS,
  detectSandbox,
  lendTree,
  makeStepFolders,
  pickStepUid,
  runSandboxed,
  type LentTree,
  type SandboxHost,
} from "../sandbox";
import { toShellResult, type ShellRequest, type ShellResult, type ShellRunner } from "./shell-runner";

export type SandboxedShellOptions = {
  /** The folder commands work in (the proxy's root_dir). */
  root: string;
  network: boolean;
  /** Where the private HOME and temp folder go; every folder above it traversable. */
  scratchDir?: string;
  /** First uid of the range the step uid is picked from (as root). */
  stepUidBase?: number;
  /** Tag of every sandboxed process (see sweepLeftovers). */
  ownerId?: string;
  /** Told once, when the level is known. */
  onLevel?: (level: SandboxHost["level"], uid: number | undefined, warnings: string[]) => void;
};

export type SandboxedShell = { run: ShellRunner; close: () => Promise<void> };

type Ready = {
  host: SandboxHost;
  uid: number | undefined;
  home: string;
  tmp: string;
  root: string;
};

/** The sandbox sets these itself; values from the proxy's environment would be wrong inside. */
const SANDBOX_OWN_ENV = new Set(["PATH", "HOME", "TMPDIR", "USER", "LOGNAME", "SHELL"]);

const unavailable = (cause: unknown) =>
  new AppError(
    "SYSTEM.SANDBOX_UNAVAILABLE",
    `Bash runs in a sandbox of its own and none works here: ${cause instanceof Error ? cause.message : String(cause)}. Install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap), or, when this proxy already runs inside a step sandbox, set "sandbox": "inherit" in its config`,
    { cause },
  );

export const createSandboxedShell = (options: SandboxedShellOptions): SandboxedShell => {
  let scratch: string | undefined;
  let ready: Promise<Ready> | undefined;
  let lent: Promise<LentTree> | undefined;
  let returning: Promise<void> = Promise.resolve();
  let holders = 0;

  const prepare = async (): Promise<Ready> => {
    const base = options.scratchDir ?? tmpdir();
    scratch = await mkdtemp(path.join(base, "switchyard-bash-"));
    await chmod(scratch, 0o711);
    const root = await realpath(options.root);
    const asRoot = process.getuid?.() === 0;
    const probeUid = asRoot ? pickStepUid(options.stepUidBase ?? DEFAULT_STEP_UID_BASE) : undefined;
    if (!existsSync(DEFAULT_TOOLS.bwrap))
      throw unavailable(new Error(`bubblewrap (${DEFAULT_TOOLS.bwrap}) is not installed`));
    let host: SandboxHost;
    try {
      host = await detectSandbox({
        mode: "auto",
        ownerId: options.ownerId ?? `switchyard-bash-${process.pid}`,
        scratchDir: scratch,
        probeUid,
      });
    } catch (error) {
      throw unavailable(error);
    }
    const uid = host.level === "strict" ? probeUid : undefined;
    const folders = await makeStepFolders(
      path.join(scratch, "step"),
      uid === undefined ? undefined : { uid },
    );
    options.onLevel?.(host.level, uid, host.warnings);
    return { host, uid, home: folders.home, tmp: folders.tmp, root };
  };

  /** At `strict` the folder belongs to the step uid while any command runs. */
  const acquire = async (r: Ready) => {
    if (r.uid === undefined) return;
    holders++;
    const uid = r.uid;
    lent ??= returning.then(() => lendTree(r.root, { uid }));
    try {
      await lent;
    } catch (error) {
      holders--;
      if (holders === 0) lent = undefined;
      throw error;
    }
  };
  const release = async (r: Ready) => {
    if (r.uid === undefined || lent === undefined) return;
    holders--;
    if (holders > 0) return;
    const current = lent;
    lent = undefined;
    returning = current.then((t) => t.giveBack());
    await returning;
  };

  const run: ShellRunner = async (request: ShellRequest): Promise<ShellResult> => {
    ready ??= prepare();
    const r = await ready;
    const cwd = path.relative(r.root, request.cwd) || ".";
    if (cwd.startsWith("..") || path.isAbsolute(cwd))
      throw new AppError("SYSTEM.SANDBOX_INVALID_SPEC", `${request.cwd} is outside ${r.root}`);
    const env = Object.fromEntries(
      Object.entries(request.env).filter(([name]) => !SANDBOX_OWN_ENV.has(name)),
    );
    await acquire(r);
    try {
      const result = await runSandboxed(
        r.host,
        {
          argv: ["/bin/bash", "--norc", "--noprofile", "-c", request.command],
          workspace: r.root,
          home: r.home,
          tmp: r.tmp,
          cwd,
          env,
          network: options.network,
          uid: r.uid,
          limits: { outputBytes: request.outputCap },
          killGraceMs: 2000,
        },
        { timeoutMs: request.timeoutMs, signal: request.signal },
      );
      return toShellResult(result);
    } finally {
      await release(r);
    }
  };

  const close = async () => {
    await ready?.catch(() => undefined);
    await returning.catch(() => undefined);
    if (scratch) await rm(scratch, { recursive: true, force: true });
  };
  return { run, close };
};
