/**
 * The step sandbox for `switchyard run` on a person's machine: one sandbox for the
 * run (see openSandbox). It finds the level once at start (as root `strict` with a
 * step uid of its own, otherwise `namespaces`; `none` only when asked for), says which on
 * stderr, and runs every process of the run with the person's workspace folder bound
 * read-write at /workspace and a private HOME and temp folder. At `strict` the workspace
 * is lent to the step uid for the run. Callers close the sandbox in `finally`, once the
 * engine has ended every step: it makes sure no process of the run is left (by the run's
 * owner tag), then gives the workspace back and removes the temp folders by descriptor.
 */
import { AppError } from "@switchyard/core/errors";
import {
  DEFAULT_STEP_UID_BASE,
  openSandbox,
  SANDBOX_LEVELS,
  type SandboxLevel,
  type Sandbox,
} from "@switchyard/core/sandbox";
import type { Io } from "./validate-command";

export type SandboxMode = "auto" | SandboxLevel;

export type LocalSandboxOptions = {
  mode: SandboxMode;
  workspace: string;
  /**
   * First uid of the range the step uid is picked from (as root).
   * @default DEFAULT_STEP_UID_BASE (61_000)
   */
  stepUidBase?: number;
  /** Whether steps share the machine's network (said on stderr with the level). */
  network: boolean;
  io: Io;
};

/**
 * What a step's network is, said once with the level: on a person's machine it is on or off,
 * never filtered (a worker at strict keeps link-local and metadata addresses from its
 * sandboxes; docs/sandbox.md).
 */
const networkLine = (network: boolean) =>
  network
    ? "network: shared with this machine, unfiltered (link-local and cloud metadata addresses are reachable too); --no-network for none"
    : "network: none (--no-network)";

/** The values --sandbox and SWITCHYARD_SANDBOX take. */
export const SANDBOX_MODES: readonly SandboxMode[] = ["auto", ...SANDBOX_LEVELS];

/** The sandbox mode `value` names; throws USER.INPUT.VALIDATION_FAILED naming `from` otherwise. */
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

const describe = (level: SandboxLevel, uid: number | undefined) => {
  switch (level) {
    case "strict":
      return `sandbox: strict (uid ${uid ?? "?"})`;
    case "namespaces":
      return "sandbox: namespaces";
    case "none":
      return "sandbox: NONE: steps run UNCONFINED, as you, and can read and change everything you can (--sandbox none)";
    default: {
      const never: never = level;
      return String(never);
    }
  }
};

/** Opens the sandbox the run's steps share, over the user's workspace. */
export const openLocalSandbox = (options: LocalSandboxOptions): Promise<Sandbox> =>
  openSandbox({
    ownerId: `switchyard-run-${process.pid}`,
    level: {
      mode: options.mode,
      optOut: "run without confinement: --sandbox none (or SWITCHYARD_SANDBOX=none)",
    },
    prefix: "switchyard-run-",
    stepUidBase: options.stepUidBase,
    workspace: options.workspace,
    lendWorkspace: "while-open",
    onLevel: (level, uid, warnings) => {
      options.io.err(`${describe(level, uid)}\n${networkLine(options.network)}\n`);
      // At `none` the line above already says it all.
      if (level !== "none")
        for (const warning of warnings) options.io.err(`sandbox warning: ${warning}\n`);
    },
  });
