/**
 * Files an agent CLI needs before it starts (its settings, a long system prompt), which a
 * provider's launch builder describes and the worker writes into the step's private HOME.
 * A file names its place twice: `path` as the CLI sees it (inside the sandbox) and
 * `relativePath` under its root folder, so the worker writes it under the host folder that
 * backs that root without rewriting paths. Written mode 0600 in 0700 folders, atomically.
 */
import { randomBytes } from "node:crypto";
import { chmod, mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { AppError } from "../errors/app-error";

export type LaunchFile = {
  /** Absolute path as the CLI sees it. */
  path: string;
  /** The private folder it lives in. */
  root: "home";
  /** Its path below that folder. */
  relativePath: string;
  content: string;
  mode: number;
};

/** Writes each file under the host folder of its root, creating folders (0700) as needed. */
export const writeLaunchFiles = async (
  files: readonly LaunchFile[],
  roots: Record<LaunchFile["root"], string>,
): Promise<void> => {
  for (const file of files) {
    const base = path.resolve(roots[file.root]);
    const target = path.resolve(base, file.relativePath);
    if (path.isAbsolute(file.relativePath) || !target.startsWith(`${base}${path.sep}`))
      throw new AppError(
        "SYSTEM.INTERNAL",
        `launch file ${file.relativePath} is not inside its ${file.root} folder`,
      );
    await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    const temp = `${target}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      await writeFile(temp, file.content, { mode: file.mode, flag: "wx" });
      await chmod(temp, file.mode);
      await rename(temp, target);
    } finally {
      await rm(temp, { force: true });
    }
  }
};
