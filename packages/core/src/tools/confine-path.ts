/**
 * Keeps every built-in inside the step's workspace. A path is resolved against the root,
 * symlinks are followed, and the real result must still be inside the real root; hard-linked
 * regular files (which can alias a file outside), /proc, /sys, /dev and anything that is not
 * a regular file or folder are refused. Opening re-checks the identity of what was opened.
 */
import { constants, type Stats } from "node:fs";
import { lstat, mkdir, open, readlink, realpath, type FileHandle } from "node:fs/promises";
import path from "node:path";

/** Thrown when a path would leave the confinement. */
export class PathRefused extends Error {
  /** Named in the tool's error text, so a caller can tell a refusal from a failure. */
  readonly code = "USER.INPUT.FILE_REFUSED";
  constructor(message: string) {
    super(message);
    this.name = "PathRefused";
  }
}

const MAX_PATH_LENGTH = 4096;
const SYSTEM_PREFIXES = ["/proc", "/sys", "/dev"];

const isInside = (root: string, candidate: string): boolean =>
  candidate === root || candidate.startsWith(root.endsWith("/") ? root : `${root}/`);

const underSystemPath = (p: string): boolean =>
  SYSTEM_PREFIXES.some((prefix) => p === prefix || p.startsWith(`${prefix}/`));

type ResolvedPath = {
  /** The real path (symlinks followed) of the target, or of its nearest existing ancestor plus the rest. */
  real: string;
  /** The path relative to the root, for messages and listings. */
  relative: string;
  exists: boolean;
};

/** Resolves paths inside one root and refuses those that leave it. */
export class Confinement {
  private constructor(readonly root: string) {}

  /** `root` must be an absolute path to an existing folder. */
  static async create(root: string): Promise<Confinement> {
    if (!path.isAbsolute(root)) throw new PathRefused(`root_dir must be absolute: ${root}`);
    const real = await realpath(root);
    const st = await lstat(real);
    if (!st.isDirectory()) throw new PathRefused(`root_dir is not a folder: ${root}`);
    if (real === "/" || underSystemPath(real)) throw new PathRefused(`root_dir may not be ${real}`);
    return new Confinement(real);
  }

  relativeOf(real: string): string {
    return path.relative(this.root, real) || ".";
  }

  /** Resolves a user-supplied path; throws PathRefused with a readable reason. */
  async resolve(input: string | undefined): Promise<ResolvedPath> {
    const raw = input === undefined || input === "" ? "." : input;
    if (raw.includes("\0")) throw new PathRefused("path contains a NUL byte");
    if (raw.length > MAX_PATH_LENGTH)
      throw new PathRefused(`path is longer than ${MAX_PATH_LENGTH} characters`);
    const lexical = path.resolve(this.root, raw);
    if (underSystemPath(lexical) && !isInside(this.root, lexical)) {
      throw new PathRefused(`${raw}: system paths (/proc, /sys, /dev) are not reachable`);
    }
    if (!isInside(this.root, lexical)) {
      throw new PathRefused(`${raw}: outside the workspace ${this.root} (use a path inside it)`);
    }
    let existing = lexical;
    const rest: string[] = [];
    for (;;) {
      try {
        const real = await realpath(existing);
        const full = rest.length > 0 ? path.join(real, ...rest.reverse()) : real;
        if (!isInside(this.root, real)) {
          throw new PathRefused(
            `${raw}: resolves through a symlink to ${real}, outside the workspace`,
          );
        }
        return { real: full, relative: this.relativeOf(full), exists: rest.length === 0 };
      } catch (error) {
        if (error instanceof PathRefused) throw error;
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENAMETOOLONG") throw new PathRefused(`${raw}: name too long`);
        if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
        if (code === "ENOENT") {
          // A dangling symlink must not become a way to create a file elsewhere.
          const link = await lstat(existing).catch(() => undefined);
          if (link?.isSymbolicLink()) throw new PathRefused(`${raw}: is a dangling symlink`);
        }
        rest.push(path.basename(existing));
        const parent = path.dirname(existing);
        if (parent === existing) throw error;
        existing = parent;
      }
    }
  }

  /**
   * What was actually opened, as the kernel names it: a folder swapped for a symlink between
   * the check and the open cannot lead outside. Skipped where /proc is not mounted.
   */
  private async checkOpened(input: string, fd: number): Promise<void> {
    const actual = await readlink(`/proc/self/fd/${fd}`).catch(() => undefined);
    if (actual !== undefined && actual.startsWith("/") && !isInside(this.root, actual)) {
      throw new PathRefused(`${input}: opened ${actual}, outside the workspace`);
    }
  }

  /**
   * Opens the folder `real` (a real path inside the root), creating what is missing, one
   * name at a time below a folder already held open: every step goes through the held
   * descriptor (/proc/self/fd/N/name) and never follows a symlink, so a folder swapped for
   * a symlink meanwhile is refused instead of leading outside. The caller closes the handle
   * and names entries as `${fdPath(handle)}/name` to stay in that folder.
   */
  async openFolder(input: string, real: string): Promise<FileHandle> {
    const relative = path.relative(this.root, real);
    if (relative.startsWith("..") || path.isAbsolute(relative))
      throw new PathRefused(`${input}: outside the workspace ${this.root}`);
    const flags = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
    const refuse = (error: NodeJS.ErrnoException): never => {
      if (error.code === "ELOOP" || error.code === "ENOTDIR")
        throw new PathRefused(`${input}: a folder on the way changed into a symlink or a file`);
      throw error;
    };
    let current = await open(this.root, flags).catch(refuse);
    try {
      await this.checkOpened(input, current.fd);
      for (const name of relative === "" ? [] : relative.split(path.sep)) {
        const at = `${fdPath(current)}/${name}`;
        await mkdir(at, { mode: 0o755 }).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== "EEXIST") throw error;
        });
        const next = await open(at, flags).catch(refuse);
        await current.close();
        current = next;
        await this.checkOpened(input, current.fd);
      }
      return current;
    } catch (error) {
      await current.close().catch(() => undefined);
      throw error;
    }
  }

  /** Opens an existing regular file for reading after every check. */
  async openFile(
    input: string,
    flags: number = constants.O_RDONLY,
  ): Promise<{ handle: FileHandle; resolved: ResolvedPath; stat: Stats }> {
    const resolved = await this.resolve(input);
    if (!resolved.exists) throw new PathRefused(`${input}: no such file`);
    const handle = await open(
      resolved.real,
      flags | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    ).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ELOOP")
        throw new PathRefused(`${input}: changed into a symlink while opening`);
      if (error.code === "EISDIR") throw new PathRefused(`${input}: is a folder, not a file`);
      throw error;
    });
    try {
      const stat = await handle.stat();
      checkRegularFile(input, stat);
      await this.checkOpened(input, handle.fd);
      return { handle, resolved, stat };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }
}

/** The path the kernel resolves to the folder held open, whatever was renamed meanwhile. */
export const fdPath = (handle: FileHandle): string => `/proc/self/fd/${handle.fd}`;

export const checkRegularFile = (input: string, stat: Stats): void => {
  if (stat.isDirectory()) throw new PathRefused(`${input}: is a folder, not a file`);
  if (!stat.isFile())
    throw new PathRefused(
      `${input}: is not a regular file (devices, pipes and sockets are refused)`,
    );
  if (stat.nlink > 1) {
    throw new PathRefused(
      `${input}: has ${stat.nlink} hard links; hard-linked files are refused because a link can alias a file outside the workspace`,
    );
  }
};
