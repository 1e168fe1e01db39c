/**
 * `Bash` in a sandbox of its own, for a proxy started by hand (`sandbox: "own"`): each
 * command runs through the step sandbox with the proxy's `root_dir` bound read-write as
 * the workspace and a private HOME and temp folder that live as long as the proxy. The
 * level is found once, on the first command, so the proxy's startup stays fast: `strict`
 * with a step uid of its own when the proxy runs as root (the folder is lent to that uid
 * while commands run), else `namespaces`. Without bubblewrap every command fails with a
 * message that says what to install. It is one sandbox: closing the proxy ends
 * whatever command still runs before the folder is given back and the private folders go.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import { AppError } from "../errors";
import { openSandbox, type SandboxHost, type Sandbox } from "../sandbox";
import {
  toShellResult,
  type ShellRequest,
  type ShellResult,
  type ShellRunner,
} from "./shell-runner";

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
  /**
   * The level to insist on; `auto` takes the strongest that works.
   * @default "auto"
   */
  mode?: "auto" | SandboxHost["level"];
  /** Told once, when the level is known. */
  onLevel?: (level: SandboxHost["level"], uid: number | undefined, warnings: string[]) => void;
};

type SandboxedShell = { run: ShellRunner; close: () => Promise<void> };

/** The sandbox sets these itself; values from the proxy's environment would be wrong inside. */
const SANDBOX_OWN_ENV = new Set(["PATH", "HOME", "TMPDIR", "USER", "LOGNAME", "SHELL"]);

/** A shell whose commands run in a sandbox. */
export const createSandboxedShell = (options: SandboxedShellOptions): SandboxedShell => {
  let sandbox: Promise<Sandbox> | undefined;
  let closed = false;
  const open = () =>
    openSandbox({
      // Its own tag even next to another proxy in this process: close() reaps by it.
      ownerId:
        options.ownerId ?? `switchyard-bash-${process.pid}-${randomBytes(4).toString("hex")}`,
      level: {
        mode: options.mode ?? "auto",
        subject: "Bash",
        optOut:
          'when this proxy already runs inside a step sandbox, set "sandbox": "inherit" in its config',
      },
      scratchDir: options.scratchDir,
      prefix: "switchyard-bash-",
      stepUidBase: options.stepUidBase,
      workspace: options.root,
      // The other built-ins write as the proxy's user between commands.
      lendWorkspace: "while-running",
      network: options.network,
      onLevel: options.onLevel,
    });

  const run: ShellRunner = async (request: ShellRequest): Promise<ShellResult> => {
    if (closed) throw new AppError("SYSTEM.SANDBOX_UNAVAILABLE", "Bash's sandbox is closed");
    sandbox ??= open();
    const s = await sandbox;
    const root = s.folders.workspace;
    const cwd = path.relative(root, request.cwd) || ".";
    if (cwd.startsWith("..") || path.isAbsolute(cwd))
      throw new AppError("SYSTEM.SANDBOX_INVALID_SPEC", `${request.cwd} is outside ${root}`);
    const env = Object.fromEntries(
      Object.entries(request.env).filter(([name]) => !SANDBOX_OWN_ENV.has(name)),
    );
    const result = await s.run(
      {
        argv: ["/bin/bash", "--norc", "--noprofile", "-c", request.command],
        cwd,
        env,
        limits: { outputBytes: request.outputCap },
        killGraceMs: 2000,
      },
      { timeoutMs: request.timeoutMs, signal: request.signal },
    );
    return toShellResult(result);
  };

  /** Ends whatever still runs, gives the folder back, removes the private folders by descriptor. */
  const close = async () => {
    closed = true;
    const opened = await sandbox?.catch(() => undefined);
    await opened?.close();
  };
  return { run, close };
};
