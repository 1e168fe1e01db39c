/**
 * The `origin` remote of a run's workspace, for github operations without a `repo` input:
 * read from the workspace's `.git/config` as a file (no git process outside the step
 * sandbox), never through a symlink a step left there, and at most 64 KB of it. The worker
 * and `switchyard run` both read it here.
 */
import { constants } from "node:fs";
import { lstat, open } from "node:fs/promises";
import path from "node:path";
import { originOfGitConfig } from "./github-repo";

const MAX_CONFIG_BYTES = 64 * 1024;

export const workspaceGitRemote = async (workspace: string): Promise<string | undefined> => {
  const gitDir = path.join(workspace, ".git");
  const dir = await lstat(gitDir).catch(() => undefined);
  if (!dir?.isDirectory()) return undefined;
  const handle = await open(
    path.join(gitDir, "config"),
    constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
  ).catch(() => undefined);
  if (!handle) return undefined;
  try {
    if (!(await handle.stat()).isFile()) return undefined;
    const buffer = Buffer.alloc(MAX_CONFIG_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, MAX_CONFIG_BYTES, 0);
    return originOfGitConfig(buffer.subarray(0, bytesRead).toString("utf8"));
  } finally {
    await handle.close();
  }
};
