/**
 * Lends a person's folder to a step uid for as long as sandboxed commands run in it, and
 * gives it back afterwards. At level `strict` a command runs as an unprivileged uid of its
 * own, which could neither write the person's files nor create any in their folder; so
 * before it starts every entry of the tree is handed to that uid, and afterwards every
 * entry gets its owner back (new entries get the owner of the folder itself).
 *
 * Never follows a symlink (lstat/lchown only). Regular files with more than one hard link
 * are left alone: the other link may sit outside the folder, and handing over the inode
 * would hand over that file too. Set-uid and set-gid entries are left alone too, and no
 * mode bit is ever put back: a step could otherwise rewrite a lent set-uid file, or reuse
 * the inode of one, and have the bit restored on a file of its own. Every folder above the lent one must be traversable by
 * the uid, or bwrap could not bind it; that is checked first, with a readable error.
 */
import type { Stats } from "node:fs";
import { chmod, lchown, lstat, readdir, stat } from "node:fs/promises";
import path from "node:path";
import { AppError } from "../errors";

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

/** Fails unless `uid` can enter every folder above `dir` (bwrap resolves bind sources as it). */
export const assertTraversable = async (dir: string, uid: number, gid: number = uid) => {
  for (let d = path.dirname(dir); ; d = path.dirname(d)) {
    const s = await stat(d);
    const bit = s.uid === uid ? 0o100 : s.gid === gid ? 0o010 : 0o001;
    if ((s.mode & bit) === 0) {
      throw new AppError(
        "SYSTEM.SANDBOX_UNAVAILABLE",
        `${d} (mode ${(s.mode & 0o777).toString(8)}) cannot be entered by the step uid ${uid}, so ${dir} cannot be bound into the sandbox: give ${d} mode 0711 (chmod o+x ${d}) or use a folder outside it`,
      );
    }
    if (d === path.dirname(d)) return;
  }
};

/** Every entry below `root` (not `root` itself), depth first, without following symlinks. */
const walk = async (root: string, visit: (file: string, s: Stats) => Promise<void>) => {
  const stack = [root];
  for (let dir = stack.pop(); dir !== undefined; dir = stack.pop()) {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      const file = path.join(dir, name);
      const s = await lstat(file).catch(() => undefined);
      if (!s) continue;
      await visit(file, s);
      if (s.isDirectory()) stack.push(file);
    }
  }
};

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

  const lend = async (file: string, s: Stats) => {
    if (s.isSymbolicLink() || (s.isFile() && s.nlink > 1) || (s.mode & SPECIAL_BITS) !== 0) return;
    saved.set(keyOf(s), { uid: s.uid, gid: s.gid, type: s.mode & TYPE_BITS });
    if (s.uid !== uid || s.gid !== gid) await lchown(file, uid, gid);
  };
  let given = false;
  const giveBack = async () => {
    if (given) return;
    given = true;
    const restore = async (file: string, s: Stats) => {
      // An inode of another type is a new entry that happens to reuse a lent one's number.
      const before = saved.get(keyOf(s));
      if (before && before.type === (s.mode & TYPE_BITS)) {
        if (s.uid !== before.uid || s.gid !== before.gid)
          await lchown(file, before.uid, before.gid);
      } else if (s.uid === uid) {
        await lchown(file, owner.uid, owner.gid);
      }
      // Whatever the step left set-uid or set-gid loses those bits on the way back.
      if (!s.isSymbolicLink() && (s.mode & SPECIAL_BITS) !== 0 && (before ? true : s.uid === uid))
        await chmod(file, s.mode & 0o777);
    };
    await walk(root, restore);
    await lchown(root, owner.uid, owner.gid);
    await chmod(root, topMode);
  };

  saved.set(keyOf(top), { uid: top.uid, gid: top.gid, type: top.mode & TYPE_BITS });
  try {
    await lchown(root, uid, gid);
    await walk(root, lend);
  } catch (error) {
    await giveBack();
    throw error;
  }
  return { uid, giveBack };
};
