/**
 * How a no-network step reaches the gateway: the forwarder script's host path (bind it
 * read-only into the sandbox, next to the gateway's socket) and the argv that starts the
 * step's command behind it, so the forwarder listens before the command runs.
 */
import { copyFile, chmod } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Host path of loopback-forwarder.mjs. */
export const LOOPBACK_FORWARDER_SCRIPT = fileURLToPath(
  new URL("./loopback-forwarder.mjs", import.meta.url),
);

/**
 * Copies the forwarder script into `dir` (a folder of the step's, which its uid can reach)
 * and returns the copy's path, to bind from there: bubblewrap resolves a bind's source as
 * the step uid, which cannot enter a checkout under a private folder (a 0700 temp folder,
 * /root).
 */
export const installLoopbackForwarder = async (dir: string): Promise<string> => {
  const copy = path.join(dir, "loopback-forwarder.mjs");
  await copyFile(LOOPBACK_FORWARDER_SCRIPT, copy);
  await chmod(copy, 0o644);
  return copy;
};

export type LoopbackCommandOptions = {
  /** The script's path inside the sandbox (where it was bound). */
  script: string;
  /** The gateway socket's path inside the sandbox. */
  socketPath: string;
  /** Port on 127.0.0.1 inside the step's network namespace; the CLI's base URL uses it. */
  listenPort: number;
  command: readonly string[];
  /** The node binary inside the sandbox (default: `node` on its PATH). */
  node?: string;
};

/** The argv that starts the forwarder, then the step's command behind it. */
export const loopbackCommand = (options: LoopbackCommandOptions): string[] => [
  options.node ?? "node",
  options.script,
  String(options.listenPort),
  options.socketPath,
  "--",
  ...options.command,
];
