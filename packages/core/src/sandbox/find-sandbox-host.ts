/**
 * Finds the level sandboxes run at on this machine, for whoever starts them: first the
 * checks that have a plain answer (`strict` needs root, bubblewrap must be installed), then
 * the self-test. When no level works, the error says how to install bubblewrap and how the
 * caller goes without it, so a person at a terminal and an operator reading a boot log
 * both know what to do.
 */
import { existsSync } from "node:fs";
import { AppError } from "../errors";
import { detectSandbox, type DetectSandboxOptions } from "./detect-sandbox";
import { DEFAULT_TOOLS } from "./sandbox-types";

export type FindSandboxHostOptions = DetectSandboxOptions & {
  /** How to go without the sandbox, the last words of the error, e.g. "run with --sandbox none". */
  optOut: string;
  /** What runs only in the sandbox, for the error; "every step" unless told. */
  subject?: string;
};

const INSTALL =
  "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)";

/** The sandbox host for the configured mode; throws when that mode cannot be had. */
export const findSandboxHost = async ({ optOut, subject, ...options }: FindSandboxHostOptions) => {
  if (options.mode === "strict" && process.getuid?.() !== 0)
    throw new AppError(
      "USER.INPUT.VALIDATION_FAILED",
      "sandbox level strict runs steps as a uid of their own and needs root; use auto or namespaces",
    );
  const hint = `${INSTALL}, or ${optOut}`;
  const bwrap = options.tools?.bwrap ?? DEFAULT_TOOLS.bwrap;
  if (options.mode !== "none" && !existsSync(bwrap))
    throw new AppError(
      "SYSTEM.SANDBOX_UNAVAILABLE",
      `bubblewrap (${bwrap}) is not installed, and ${subject ?? "every step"} runs in its sandbox; ${hint}`,
    );
  try {
    return await detectSandbox(options);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new AppError(
      "SYSTEM.SANDBOX_UNAVAILABLE",
      `the step sandbox does not work here (${reason}); ${hint}`,
      { cause: error },
    );
  }
};
