/**
 * Walks a folder tree that a step could have changed without ever following a path the
 * step controls. Node has no openat/unlinkat, but Linux's /proc/self/fd/<fd> stands for
 * the object an open descriptor holds: `/proc/self/fd/<dir>/<name>` looks `name` up in
 * exactly the folder held by `dir`, wherever that folder now is, and `/proc/self/fd/<fd>`
 * is the entry itself. Every entry is opened with O_PATH|O_NOFOLLOW (a symlink yields a
 * descriptor of the link, never of its target), so a folder swapped for a symlink to
 * /etc between two calls is at worst a symlink that gets unlinked or re-owned.
 *
 * Used by the worker and `switchyard run` to remove a run's folders and to give a lent
 * tree back to its owner, as root, after every process of the step is gone.
 */
import { constants, type Stats } from "node:fs";
import { chmod, open, readdir, rmdir, unlink, type FileHandle } from "node:fs/promises";

/** O_PATH (Linux): a descriptor that only names an object; fstat and /proc/self/fd work on it. */
const O_PATH = 0o10000000;

/** The path that names what descriptor `fd` holds, or `name` inside the folder it holds. */
export const fdPath = (fd: number, name?: string) =>
  name === undefined ? `/proc/self/fd/${fd}` : `/proc/self/fd/${fd}/${name}`;

/** Opens `file` as an O_PATH descriptor without following a symlink in its last component. */
export const openNoFollow = (file: string, options: { directory?: boolean } = {}) =>
  open(file, O_PATH | constants.O_NOFOLLOW | (options.directory ? constants.O_DIRECTORY : 0));

export type TreeEntry = {
  /** The entry by name in its parent's descriptor: never follows the entry if it is a symlink. */
  at: string;
  /** The entry itself through its own descriptor; absent for symlinks (their target is not it). */
  self: string | undefined;
  stats: Stats;
};

type TreeVisitor = {
  /** Before a folder's entries are walked (and for every other entry). */
  enter?: (entry: TreeEntry) => Promise<void>;
  /** After a folder's entries were walked (and for every other entry). */
  leave?: (entry: TreeEntry) => Promise<void>;
};

/**
 * Visits every entry below the folder that `dir` holds (not the folder itself), depth
 * first, holding one descriptor per level. An entry that vanished meanwhile is skipped.
 */
export const walkTree = async (dir: FileHandle, visitor: TreeVisitor): Promise<void> => {
  const names = await readdir(fdPath(dir.fd)).catch(() => [] as string[]);
  for (const name of names) {
    const at = fdPath(dir.fd, name);
    const handle = await openNoFollow(at).catch(() => undefined);
    if (!handle) continue;
    try {
      const stats = await handle.stat();
      const entry = { at, self: stats.isSymbolicLink() ? undefined : fdPath(handle.fd), stats };
      await visitor.enter?.(entry);
      if (stats.isDirectory()) await walkTree(handle, visitor);
      await visitor.leave?.(entry);
    } finally {
      await handle.close();
    }
  }
};

const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === "ENOENT";

/**
 * Removes the folder `root` and everything in it, by descriptor (see above); `root` itself
 * must sit in a folder the step cannot change (the caller's own). Missing is fine. Fails
 * with the first error after trying every entry, so what can go does go.
 */
export const removeFolder = async (root: string): Promise<void> => {
  let top: FileHandle;
  try {
    top = await openNoFollow(root, { directory: true });
  } catch (error) {
    if (missing(error)) return;
    throw error;
  }
  let first: Error | undefined;
  const note = (error: unknown) => {
    if (!missing(error)) first ??= error instanceof Error ? error : new Error(String(error));
  };
  // A folder the step left without write or search permission still has to be emptied:
  // its owner may open it up (root needs not).
  const asRoot = process.getuid?.() === 0;
  const openUp = async (self: string | undefined, stats: Stats) => {
    if (!asRoot && self && stats.isDirectory() && (stats.mode & 0o700) !== 0o700)
      await chmod(self, (stats.mode & 0o7777) | 0o700).catch(note);
  };
  try {
    await openUp(fdPath(top.fd), await top.stat());
    await walkTree(top, {
      enter: (entry) => openUp(entry.self, entry.stats),
      leave: async (entry) => {
        await (entry.stats.isDirectory() ? rmdir(entry.at) : unlink(entry.at)).catch(note);
      },
    });
  } finally {
    await top.close();
  }
  await rmdir(root).catch(note);
  if (first !== undefined) throw first;
};
