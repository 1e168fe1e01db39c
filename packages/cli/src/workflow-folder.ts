/**
 * The workflow's own folder, as `switchyard run` and `validate` read it: the YAML, its
 * scripts, prompt files, readFile targets and sub-workflows. Steps can write that folder
 * (it is often the workspace) while the CLI may be root, so nothing here follows a
 * symlink: the folder is held open from the start and every path below it is walked one
 * component at a time with O_NOFOLLOW. Only regular files with one link are read, through
 * the descriptor that was checked, non-blocking (a FIFO cannot stall the open) and at most
 * MAX_WORKFLOW_FILE bytes. Files read through `read` before the first step (`snapshot`)
 * are served from memory afterwards, so a step cannot change the scripts or sub-workflows a
 * run was validated with; `readLive` reads the folder as it is, for what a run reads when
 * used (readFile).
 */
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
} from "node:fs";
import path from "node:path";
import { AppError } from "@switchyard/core/errors";

/** The largest workflow file read, in bytes. */
export const MAX_WORKFLOW_FILE = 1024 * 1024;

/** The most files `list` names. */
const MAX_LISTED = 1000;

/** Linux's O_PATH (not in fs.constants): a handle on a path that opens nothing. */
const O_PATH = 0o10000000;

export type WorkflowFolder = {
  /** The folder, absolute, as the caller named it. */
  readonly dir: string;
  /**
   * A file by path relative to the folder: its text, or undefined when it does not exist,
   * is a folder or lies outside. Throws USER.INPUT.FILE_REFUSED for a symlink, a FIFO, a
   * device, a hard-linked or an oversized file.
   */
  readonly read: (relative: string) => string | undefined;
  /** Like read, but the folder as it is now: never served from, nor kept for, the snapshot. */
  readonly readLive: (relative: string) => string | undefined;
  /**
   * The regular files below a folder, relative to it and sorted (symlinks and what is below
   * them left out; at most MAX_LISTED); empty when it is not a folder inside.
   */
  readonly list: (relative: string) => string[];
  /** From now on, every file read so far is served as it was then. */
  snapshot(): void;
  close(): void;
};

const refused = (dir: string, relative: string, why: string) =>
  new AppError(
    "USER.INPUT.FILE_REFUSED",
    `${relative} (in ${dir}) ${why}; workflow files are read only as regular files, without following links`,
    { location: { file: path.join(dir, relative) } },
  );

const errnoOf = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** The path's components below the folder, or undefined when it is absolute or leaves it. */
const componentsOf = (relative: string): string[] | undefined => {
  if (relative === "" || relative.includes("\0") || path.isAbsolute(relative)) return undefined;
  const normal = path.posix.normalize(relative);
  if (normal === ".." || normal.startsWith("../") || normal === ".") return undefined;
  return normal.split("/").filter((c) => c !== "" && c !== ".");
};

const readCapped = (fd: number, cap: number): Buffer | undefined => {
  const buffer = Buffer.alloc(cap + 1);
  let filled = 0;
  while (filled < buffer.length) {
    const n = readSync(fd, buffer, filled, buffer.length - filled, null);
    if (n === 0) break;
    filled += n;
  }
  return filled > cap ? undefined : buffer.subarray(0, filled);
};

/** Opens `dir` (following the caller's own path) and keeps it open until close(). */
export const openWorkflowFolder = (dir: string): WorkflowFolder => {
  const root = path.resolve(dir);
  const rootFd = openSync(root, constants.O_RDONLY | constants.O_DIRECTORY);
  const kept = new Map<string, string>();
  let frozen: ReadonlyMap<string, string> | undefined;
  // Where /proc is missing (not Linux) each folder is checked by path instead: a swap between
  // the check and the open is then possible, which the Linux path rules out.
  const viaProc = existsSync(`/proc/self/fd/${rootFd}`);

  /** A handle on `part` inside the folder `at` (a handle, or the path where /proc is missing). */
  const enter = (at: number, below: string[], part: string) => {
    if (viaProc) {
      const fd = openSync(`/proc/self/fd/${at}/${part}`, O_PATH | constants.O_NOFOLLOW);
      return { fd, stat: fstatSync(fd) };
    }
    return { fd: undefined, stat: lstatSync(path.join(root, ...below, part)) };
  };
  const finalPath = (at: number, below: string[], part: string) =>
    viaProc ? `/proc/self/fd/${at}/${part}` : path.join(root, ...below, part);

  /** Enters the folders `dirs` one by one (their handles pushed on `opened`); undefined when one is missing. */
  const enterAll = (relative: string, dirs: string[], opened: number[]) => {
    let at = rootFd;
    const below: string[] = [];
    for (const part of dirs) {
      let entered: ReturnType<typeof enter>;
      try {
        entered = enter(at, below, part);
      } catch (error) {
        if (errnoOf(error) === "ENOENT" || errnoOf(error) === "ENOTDIR") return undefined;
        throw error;
      }
      if (entered.fd !== undefined) opened.push(entered.fd);
      if (entered.stat.isSymbolicLink())
        throw refused(root, relative, `goes through ${part}, a symlink`);
      if (!entered.stat.isDirectory()) return undefined;
      if (entered.fd !== undefined) at = entered.fd;
      below.push(part);
    }
    return { at, below };
  };

  const listNow = (relative: string, parts: string[]): string[] => {
    const opened: number[] = [];
    try {
      const inside = enterAll(relative, parts, opened);
      if (!inside) return [];
      const start = viaProc ? `/proc/self/fd/${inside.at}` : path.join(root, ...inside.below);
      const found: string[] = [];
      const walk = (dir: string, prefix: string) => {
        for (const entry of readdirSync(dir, { withFileTypes: true })) {
          if (found.length >= MAX_LISTED) return;
          if (entry.isFile()) found.push(`${prefix}${entry.name}`);
          else if (entry.isDirectory()) walk(path.join(dir, entry.name), `${prefix}${entry.name}/`);
        }
      };
      walk(start, "");
      return found.sort();
    } finally {
      for (const fd of opened) closeSync(fd);
    }
  };

  const readNow = (relative: string, parts: string[]): string | undefined => {
    const opened: number[] = [];
    try {
      const inside = enterAll(relative, parts.slice(0, -1), opened);
      if (!inside) return undefined;
      const { at, below } = inside;
      let fd: number;
      try {
        fd = openSync(
          finalPath(at, below, parts[parts.length - 1]!),
          constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
        );
      } catch (error) {
        const code = errnoOf(error);
        if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR") return undefined;
        if (code === "ELOOP") throw refused(root, relative, "is a symlink");
        throw refused(root, relative, `cannot be opened (${code ?? String(error)})`);
      }
      opened.push(fd);
      const st = fstatSync(fd);
      if (st.isDirectory()) return undefined;
      if (!st.isFile())
        throw refused(root, relative, "is not a regular file (a FIFO, device or socket)");
      if (st.nlink > 1)
        throw refused(
          root,
          relative,
          `has ${st.nlink} hard links (a link can alias a file elsewhere)`,
        );
      const bytes = readCapped(fd, MAX_WORKFLOW_FILE);
      if (!bytes)
        throw refused(root, relative, `is larger than ${MAX_WORKFLOW_FILE / 1024 / 1024} MiB`);
      return bytes.toString("utf8");
    } finally {
      for (const fd of opened) closeSync(fd);
    }
  };

  return {
    dir: root,
    read: (relative) => {
      const parts = componentsOf(relative);
      if (!parts || parts.length === 0) return undefined;
      const key = parts.join("/");
      const held = frozen?.get(key);
      if (held !== undefined) return held;
      const text = readNow(key, parts);
      if (text !== undefined && !frozen) kept.set(key, text);
      return text;
    },
    readLive: (relative) => {
      const parts = componentsOf(relative);
      return parts && parts.length > 0 ? readNow(parts.join("/"), parts) : undefined;
    },
    list: (relative) => {
      const parts = relative === "" || relative === "." ? [] : componentsOf(relative);
      return parts ? listNow(parts.join("/"), parts) : [];
    },
    snapshot: () => {
      frozen = new Map(kept);
    },
    close: () => closeSync(rootFd),
  };
};
