/**
 * Lends a person's folder to a step uid for as long as sandboxed commands run in it, and
 * gives it back afterwards. At level `strict` a command runs as an unprivileged uid of its
 * own, which could neither write the person's files nor create any in their folder; so
 * before it starts every entry of the tree is handed to that uid, and afterwards every
 * entry gets its owner back (new entries get the owner of the folder itself).
 *
 * Never follows a symlink: both walks go by descriptor (see sandbox/fd-tree), so an entry
 * is re-owned or re-moded through the descriptor that was checked, never by a path a step
 * could meanwhile have swapped for a symlink (and callers give the tree back only once no
 * process of the step is left, so nothing changes under the walk at all). Regular files
 * with more than one hard link are left alone: the other link may sit outside the folder,
 * and handing over the inode would hand over that file too. Set-uid and set-gid entries
 * are left alone too, and no mode bit is ever put back: a step could otherwise rewrite a
 * lent set-uid file, or reuse the inode of one, and have the bit restored on a file of its
 * own. Every folder above the lent one must be traversable by the uid, or bwrap could not
 * bind it; that is checked first, with a readable error.
 */
import type { Stats } from "node:fs";
import { chmod, chown, lchown, lstat, type FileHandle } from "node:fs/promises";
import { AppError } from "../errors";
import { fdPath, openNoFollow, walkTree, type TreeEntry } from "./fd-tree";
import { assertTraversable } from "./prepare-step-dirs";

export type LentTree = {
  /** The uid the tree is lent to. */
  uid: number;
  /** Gives every entry its owner back; idempotent. */
  giveBack: () => Promise<void>;
};

type Saved = { uid: number; gid: number; type: number };

const SPECIAL_BITS = 0o6000;
const TYPE_BITS = 0o170000;
const keyOf = (s: Stats) => `${s.dev}:${s.ino}`;

/** Every entry below `root` (not `root` itself), depth first, by descriptor. */
const walk = async (root: string, visit: (entry: TreeEntry) => Promise<void>) => {
  const top: FileHandle = await openNoFollow(root, { directory: true });
  try {
    await walkTree(top, { enter: visit });
  } finally {
    await top.close();
  }
};

/**
 * Re-owns the entry the walk checked: the inode itself through its descriptor, or a
 * symlink by name (lchown never follows; a link gone meanwhile needs nothing).
 */
const chownEntry = (entry: TreeEntry, uid: number, gid: number) =>
  entry.self === undefined
    ? lchown(entry.at, uid, gid).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOENT") throw error;
      })
    : chown(entry.self, uid, gid);

/** `root` itself, by descriptor, so a symlink put in its place is never followed. */
const setTop = async (root: string, owner: { uid: number; gid: number }, mode: number) => {
  const top = await openNoFollow(root, { directory: true });
  try {
    await chown(fdPath(top.fd), owner.uid, owner.gid);
    await chmod(fdPath(top.fd), mode);
  } finally {
    await top.close();
  }
};

/** Gives a folder tree to a step uid; the returned LentTree takes it back. */
export const lendTree = async (
  root: string,
  to: { uid: number; gid?: number },
): Promise<LentTree> => {
  const uid = to.uid;
  const gid = to.gid ?? uid;
  if (!Number.isInteger(uid) || uid <= 0)
    throw new AppError("SYSTEM.SANDBOX_INVALID_SPEC", `cannot lend ${root} to uid ${uid}`);
  const top = await lstat(root);
  if (!top.isDirectory())
    throw new AppError("USER.INPUT.VALIDATION_FAILED", `${root} is not a folder`);
  await assertTraversable(root, uid, gid);
  const owner = { uid: top.uid, gid: top.gid };
  const topMode = top.mode & 0o7777;
  const saved = new Map<string, Saved>();

  const lend = async (entry: TreeEntry) => {
    const s = entry.stats;
    if (s.isSymbolicLink() || (s.isFile() && s.nlink > 1) || (s.mode & SPECIAL_BITS) !== 0) return;
    saved.set(keyOf(s), { uid: s.uid, gid: s.gid, type: s.mode & TYPE_BITS });
    if (s.uid !== uid || s.gid !== gid) await chownEntry(entry, uid, gid);
  };
  let given = false;
  const giveBack = async () => {
    if (given) return;
    given = true;
    const restore = async (entry: TreeEntry) => {
      const s = entry.stats;
      // An inode of another type is a new entry that happens to reuse a lent one's number.
      const before = saved.get(keyOf(s));
      if (before && before.type === (s.mode & TYPE_BITS)) {
        if (s.uid !== before.uid || s.gid !== before.gid)
          await chownEntry(entry, before.uid, before.gid);
      } else if (s.uid === uid) {
        await chownEntry(entry, owner.uid, owner.gid);
      }
      // Whatever the step left set-uid or set-gid loses those bits on the way back.
      if (
        entry.self !== undefined &&
        (s.mode & SPECIAL_BITS) !== 0 &&
        (before ? true : s.uid === uid)
      )
        await chmod(entry.self, s.mode & 0o777);
    };
    await walk(root, restore);
    await setTop(root, owner, topMode);
  };

  saved.set(keyOf(top), { uid: top.uid, gid: top.gid, type: top.mode & TYPE_BITS });
  try {
    await setTop(root, { uid, gid }, topMode);
    await walk(root, lend);
  } catch (error) {
    await giveBack();
    throw error;
  }
  return { uid, giveBack };
};
