/**
 * An agent CLI's own session files, carried from a suspended step to the step that resumes it
 * on any worker: read from the stopped step's private HOME, written into the new step's
 * private HOME before its CLI starts. The worker runs as root and the HOME is the step uid's,
 * so nothing here follows a link: a file the step turned into a symlink (or a folder on the
 * way to it) is refused, never read through, and a path that leaves HOME is refused when
 * written. Reading happens once the CLI and everything it started are gone.
 */
import { constants } from "node:fs";
import { chown, lstat, mkdir, open, readdir, rename, rm } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { AppError } from "../../errors/app-error";

/** One file of a CLI's session: its path below HOME, its mode, its bytes in base64. */
export type SessionFile = { path: string; mode: number; data: string };

/** A suspended CLI session: the id the CLI resumes by, and its files. */
export type SuspendedSession = { sessionId: string; files: SessionFile[] };

/** What a session may weigh in all; a larger one is not kept (the step cannot resume). */
export const SESSION_BYTES_MAX = 64 * 1024 * 1024;

const cannotResume = (message: string) => new AppError("EXECUTION.AGENT_CANNOT_RESUME", message);

/** A relative path below HOME, without `.`/`..` parts or a leading slash. */
const safeRelative = (relative: string) => {
  const parts = relative.split("/");
  if (
    relative === "" ||
    path.isAbsolute(relative) ||
    parts.some((p) => p === "" || p === "." || p === "..")
  )
    throw cannotResume(`session file path ${JSON.stringify(relative)} is not below HOME`);
  return parts;
};

/** Whether every folder from `home` down to `relative`'s folder is a real folder (no link on the way). */
const realFolders = async (home: string, parts: readonly string[]) => {
  let at = home;
  for (const part of parts.slice(0, -1)) {
    at = path.join(at, part);
    const info = await lstat(at).catch(() => undefined);
    if (!info?.isDirectory()) return false;
  }
  return true;
};

/**
 * Files below `dir` (relative to `home`) whose name `keep` accepts, recursively, as relative
 * paths; links and anything but regular files and folders are skipped. A missing `dir` has none.
 */
export const findSessionFiles = async (
  home: string,
  dir: string,
  keep: (relative: string, name: string) => boolean,
): Promise<string[]> => {
  const found: string[] = [];
  const walk = async (relative: string) => {
    const entries = await readdir(path.join(home, relative), { withFileTypes: true }).catch(
      () => [],
    );
    for (const entry of entries) {
      const child = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) await walk(child);
      else if (entry.isFile() && keep(child, entry.name)) found.push(child);
    }
  };
  const start = await lstat(path.join(home, dir)).catch(() => undefined);
  if (start?.isDirectory() && (await realFolders(home, [...dir.split("/"), ""]))) await walk(dir);
  return found.sort();
};

/** Reads the given files (relative to `home`): regular files only, never through a link. */
export const readSessionFiles = async (
  home: string,
  relatives: readonly string[],
): Promise<SessionFile[]> => {
  const files: SessionFile[] = [];
  let total = 0;
  for (const relative of relatives) {
    const parts = safeRelative(relative);
    if (!(await realFolders(home, parts)))
      throw cannotResume(`session file ${relative} is behind a link`);
    const handle = await open(
      path.join(home, relative),
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    ).catch((error: unknown) => {
      throw cannotResume(`session file ${relative} cannot be read: ${(error as Error).message}`);
    });
    try {
      const info = await handle.stat();
      if (!info.isFile()) throw cannotResume(`session file ${relative} is not a regular file`);
      total += info.size;
      if (total > SESSION_BYTES_MAX)
        throw cannotResume(
          `the session's files are larger than ${SESSION_BYTES_MAX / 1024 / 1024} MiB`,
        );
      const data = await handle.readFile();
      files.push({ path: relative, mode: info.mode & 0o777, data: data.toString("base64") });
    } finally {
      await handle.close();
    }
  }
  return files;
};

/**
 * Writes session files into `home` (a fresh step's private HOME), owned by `owner` with their
 * folders (0700), each file atomically with its own mode (owner-only bits kept).
 */
export const writeSessionFiles = async (
  home: string,
  files: readonly SessionFile[],
  owner: number,
): Promise<void> => {
  for (const file of files) {
    const parts = safeRelative(file.path);
    let at = home;
    for (const part of parts.slice(0, -1)) {
      at = path.join(at, part);
      const info = await lstat(at).catch(() => undefined);
      if (!info) {
        await mkdir(at, { mode: 0o700 });
        await chown(at, owner, owner);
      } else if (!info.isDirectory())
        throw cannotResume(`session folder ${path.relative(home, at)} is not a folder`);
    }
    const target = path.join(home, file.path);
    const temp = `${target}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      const handle = await open(temp, "wx", (file.mode & 0o700) | 0o600);
      try {
        await handle.writeFile(Buffer.from(file.data, "base64"));
        await handle.chown(owner, owner);
      } finally {
        await handle.close();
      }
      await rename(temp, target);
    } finally {
      await rm(temp, { force: true });
    }
  }
};
