/**
 * Writes a snapshot's entries back into a folder (a new run's workspace, or another
 * worker's copy of a waiting step's), as root if need be. The manifest is checked first
 * (parseSnapshotEntries: nothing outside the folder, nothing below a file or link), and
 * every write goes by descriptor one name at a time, never following a link: a folder on the
 * way that is a link (put there before, or meanwhile) fails the restore instead of being
 * followed. Links are written as the links they were; files get their permission bits (no
 * set-uid, set-gid or sticky bit) and, with `owner`, everything written is the step uid's.
 */
import { constants } from "node:fs";
import {
  chmod,
  chown,
  lchown,
  mkdir,
  open,
  symlink,
  unlink,
  type FileHandle,
} from "node:fs/promises";
import { AppError } from "../errors";
import { fdPath, openNoFollow } from "../sandbox/fd-tree";
import { parseSnapshotEntries, type SnapshotEntry } from "./snapshot-entries";

/** New folders on the way to an entry (their modes are not in the snapshot). */
const FOLDER_MODE = 0o755;

type WriteFolderOptions = {
  /** Who owns what is written (the step uid); unset: the caller. */
  owner?: { uid: number; gid?: number };
};

const refused = (relative: string, why: string, cause?: unknown) =>
  new AppError(
    "SYSTEM.SNAPSHOT_INVALID",
    `the workspace snapshot cannot be restored: "${relative}" ${why}`,
    cause === undefined ? {} : { cause },
  );

export const writeSnapshotEntries = async (
  dir: string,
  manifest: unknown,
  content: (sha256: string) => Promise<Buffer>,
  options: WriteFolderOptions = {},
): Promise<void> => {
  const entries = parseSnapshotEntries(manifest);
  const owner = options.owner && {
    uid: options.owner.uid,
    gid: options.owner.gid ?? options.owner.uid,
  };
  const top = await openNoFollow(dir, { directory: true });
  /** Folders opened so far, by path ("" is the top). */
  const folders = new Map<string, FileHandle>([["", top]]);

  /** The folder at `relative`, made when missing; never through a link. */
  const folderAt = async (relative: string): Promise<FileHandle> => {
    const known = folders.get(relative);
    if (known) return known;
    const cut = relative.lastIndexOf("/");
    const parent = await folderAt(cut < 0 ? "" : relative.slice(0, cut));
    const at = fdPath(parent.fd, relative.slice(cut + 1));
    let made = false;
    await mkdir(at, FOLDER_MODE).then(
      () => (made = true),
      (error: NodeJS.ErrnoException) => {
        if (error.code !== "EEXIST") throw error;
      },
    );
    const handle = await openNoFollow(at, { directory: true }).catch((error: unknown) => {
      throw refused(relative, "is not a folder (a link or a file is in its place)", error);
    });
    folders.set(relative, handle);
    if (made) {
      await chmod(fdPath(handle.fd), FOLDER_MODE);
      if (owner) await chown(fdPath(handle.fd), owner.uid, owner.gid);
    }
    return handle;
  };

  /** The entry's folder and name in it. */
  const placeOf = async (relative: string) => {
    const cut = relative.lastIndexOf("/");
    const folder = await folderAt(cut < 0 ? "" : relative.slice(0, cut));
    return fdPath(folder.fd, relative.slice(cut + 1));
  };

  /** Removes a file or link that sits where an entry goes (a folder there fails the write). */
  const clear = (at: string) =>
    unlink(at).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error;
    });

  const writeEntry = async (entry: SnapshotEntry) => {
    if ("dir" in entry) return void (await folderAt(entry.path));
    const at = await placeOf(entry.path);
    await clear(at);
    if ("link" in entry) {
      await symlink(entry.link, at);
      if (owner) await lchown(at, owner.uid, owner.gid);
      return;
    }
    const bytes = await content(entry.sha256);
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
    const file = await open(at, flags, 0o600);
    try {
      await file.writeFile(bytes);
      if (owner) await file.chown(owner.uid, owner.gid);
      await file.chmod(entry.mode & 0o777);
    } finally {
      await file.close();
    }
  };

  try {
    for (const entry of entries) {
      try {
        await writeEntry(entry);
      } catch (error) {
        if (error instanceof AppError) throw error;
        throw refused(entry.path, `could not be written (${(error as Error).message})`, error);
      }
    }
  } finally {
    for (const handle of folders.values()) await handle.close();
  }
};
