/**
 * Reads a folder a step may have written into a snapshot's entries, as root if need be,
 * without ever following a path the step controls: every entry is opened by descriptor
 * (sandbox/fd-tree), symbolic links are kept as links, and a file is read through the
 * descriptor whose type was checked, so a name swapped for a FIFO or a link to /etc between
 * two calls is never read. Sockets, FIFOs and devices are left out. A file with several
 * names (hard links) that the folder's owner does not own is refused: a step could have
 * linked a file it may not read into its workspace, and a restore hands everything to it. Content is hashed with
 * SHA-256 as it streams; nothing is kept in memory but the hash, and `readFolderFile` reads
 * one file again (checked against its hash) when its bytes are needed.
 */
import { createHash } from "node:crypto";
import { open, readdir, readlink, type FileHandle } from "node:fs/promises";
import { fdPath, openNoFollow } from "../sandbox/fd-tree";
import {
  DEFAULT_MAX_ENTRIES,
  type SnapshotEntry,
  type SnapshotFile,
  type SnapshotLimits,
} from "./snapshot-entries";

/** A folder's snapshot: its entries (files by hash), or why it was not taken. */
export type FolderSnapshot =
  | { kept: true; entries: SnapshotEntry[]; totalBytes: number; files: number }
  | { kept: false; reason: string };

const CHUNK = 64 * 1024;

/** Raised inside the walk when a limit is passed; becomes `{ kept: false }`. */
class NotKept extends Error {}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The bytes of the regular file `handle` (an O_PATH descriptor) holds, hashed, up to `max` bytes. */
const hashFile = async (handle: FileHandle, max: number, where: string) => {
  const file = await open(fdPath(handle.fd), "r");
  try {
    const hash = createHash("sha256");
    const buffer = Buffer.allocUnsafe(CHUNK);
    let size = 0;
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, CHUNK, null);
      if (bytesRead === 0) break;
      size += bytesRead;
      if (size > max) throw new NotKept(`${where} is larger than ${max} bytes`);
      hash.update(buffer.subarray(0, bytesRead));
    }
    return { sha256: hash.digest("hex"), size };
  } finally {
    await file.close();
  }
};

/** A link's target, read by name: a name that is no longer a link means the folder changed. */
const linkOf = (at: string, relative: string) =>
  readlink(at).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "EINVAL" || error.code === "ENOENT")
      throw new NotKept(`"${relative}" changed while the workspace was read`);
    throw error;
  });

/**
 * Walks `dir` into snapshot entries (sorted by path), hashing every regular file. Over a
 * limit, or with a name that is not UTF-8, it returns `{ kept: false, reason }`; errors
 * reading the folder (a file the caller may not read, say) are thrown.
 */
export const snapshotFolder = async (
  dir: string,
  limits: SnapshotLimits,
): Promise<FolderSnapshot> => {
  const maxEntries = limits.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const entries: SnapshotEntry[] = [];
  let totalBytes = 0;
  let files = 0;
  /** The folder's owner (the step uid): files it does not own are kept only with one name. */
  let owner = -1;
  const add = (entry: SnapshotEntry) => {
    if (entries.length >= maxEntries)
      throw new NotKept(`the workspace has more than ${maxEntries} entries`);
    entries.push(entry);
  };
  const walk = async (folder: FileHandle, prefix: string): Promise<void> => {
    const raw = await readdir(fdPath(folder.fd), { encoding: "buffer" });
    const names = raw.map((name) => {
      try {
        return utf8.decode(name);
      } catch {
        throw new NotKept(`a name in "${prefix || "."}" is not UTF-8`);
      }
    });
    names.sort();
    if (names.length === 0 && prefix !== "") add({ path: prefix.slice(0, -1), dir: true });
    for (const name of names) {
      const relative = `${prefix}${name}`;
      const at = fdPath(folder.fd, name);
      const handle = await openNoFollow(at).catch((error: NodeJS.ErrnoException) => {
        // Gone meanwhile: it was not there.
        if (error.code === "ENOENT") return undefined;
        throw error;
      });
      if (!handle) continue;
      try {
        const stats = await handle.stat();
        if (stats.isDirectory()) await walk(handle, `${relative}/`);
        else if (stats.isSymbolicLink()) add({ path: relative, link: await linkOf(at, relative) });
        else if (stats.isFile()) {
          // Another name of a file someone else owns may be a link to it from outside.
          if (stats.nlink > 1 && stats.uid !== owner)
            throw new NotKept(
              `"${relative}" is a hard link to a file the folder's owner does not own`,
            );
          const { sha256, size } = await hashFile(handle, limits.maxFileBytes, `"${relative}"`);
          totalBytes += size;
          if (totalBytes > limits.maxTotalBytes)
            throw new NotKept(
              `the workspace's files are larger than ${limits.maxTotalBytes} bytes`,
            );
          files++;
          add({ path: relative, mode: stats.mode & 0o777, sha256, size });
        }
      } finally {
        await handle.close();
      }
    }
  };
  const top = await openNoFollow(dir, { directory: true });
  try {
    owner = (await top.stat()).uid;
    await walk(top, "");
  } catch (error) {
    if (error instanceof NotKept) return { kept: false, reason: error.message };
    throw error;
  } finally {
    await top.close();
  }
  return { kept: true, entries, totalBytes, files };
};

/**
 * Opens the entry at `relative` below the folder `top` holds, one name at a time by
 * descriptor (O_PATH, O_NOFOLLOW): a link on the way is never followed. The caller closes
 * the handle. Throws when a folder on the way is not a folder.
 */
const openBelow = async (top: FileHandle, relative: string): Promise<FileHandle> => {
  const names = relative.split("/");
  let current = top;
  try {
    for (const [i, name] of names.entries()) {
      const last = i === names.length - 1;
      const next = await openNoFollow(fdPath(current.fd, name), { directory: !last });
      if (current !== top) await current.close();
      current = next;
    }
    return current;
  } catch (error) {
    if (current !== top) await current.close();
    throw error;
  }
};

/**
 * One file of a snapshot, read again from `dir`: its bytes, or an error when it is no
 * longer the regular file with that content (the folder changed since it was walked).
 */
export const readFolderFile = async (dir: string, file: SnapshotFile): Promise<Buffer> => {
  const top = await openNoFollow(dir, { directory: true });
  try {
    const handle = await openBelow(top, file.path);
    try {
      if (!(await handle.stat()).isFile()) throw new Error(`"${file.path}" is no longer a file`);
      const bytes = await (async () => {
        const reader = await open(fdPath(handle.fd), "r");
        try {
          const buffer = Buffer.allocUnsafe(file.size + 1);
          let size = 0;
          for (;;) {
            const { bytesRead } = await reader.read(buffer, size, buffer.length - size, null);
            if (bytesRead === 0) break;
            size += bytesRead;
            if (size > file.size) break;
          }
          return buffer.subarray(0, size);
        } finally {
          await reader.close();
        }
      })();
      if (createHash("sha256").update(bytes).digest("hex") !== file.sha256)
        throw new Error(`"${file.path}" changed while the workspace was being kept`);
      return bytes;
    } finally {
      await handle.close();
    }
  } finally {
    await top.close();
  }
};
