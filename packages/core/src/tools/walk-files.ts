/**
 * Walks a workspace folder for Glob and Grep: never follows a symlinked folder (no loops,
 * no escapes), visits at most a fixed number of entries, and yields paths relative to the
 * root in sorted order.
 */
import { constants, type Dirent } from "node:fs";
import { open, readdir, readlink } from "node:fs/promises";
import path from "node:path";

const WALK_ENTRY_LIMIT = 200_000;

type WalkEntry = { relative: string; full: string; dirent: Dirent };
type WalkResult = { entries: WalkEntry[]; truncated: boolean };

const inside = (root: string, p: string) => p === root || p.startsWith(`${root}/`);

/**
 * Lists a folder by descriptor: a folder swapped for a symlink after its parent was read is
 * not followed (O_NOFOLLOW), and one whose opened path is not below `root` is skipped, so a
 * walk never lists a name from outside. Where /proc is not mounted, the path is listed.
 */
const listFolder = async (root: string, dir: string): Promise<Dirent[]> => {
  const handle = await open(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  try {
    const at = `/proc/self/fd/${handle.fd}`;
    const actual = await readlink(at).catch(() => undefined);
    if (actual === undefined) return await readdir(dir, { withFileTypes: true });
    if (!inside(root, actual)) return [];
    return await readdir(at, { withFileTypes: true });
  } finally {
    await handle.close();
  }
};

export const walkFiles = async (
  root: string,
  start: string,
  signal?: AbortSignal,
): Promise<WalkResult> => {
  const entries: WalkEntry[] = [];
  let visited = 0;
  let truncated = false;
  const stack = [start];
  while (stack.length > 0) {
    if (signal?.aborted) break;
    const dir = stack.pop()!;
    let children: Dirent[];
    try {
      children = await listFolder(root, dir);
    } catch {
      continue;
    }
    for (const child of children) {
      if (++visited > WALK_ENTRY_LIMIT) {
        truncated = true;
        break;
      }
      const full = path.join(dir, child.name);
      if (child.isDirectory()) stack.push(full);
      else entries.push({ relative: path.relative(root, full), full, dirent: child });
    }
    if (truncated) break;
  }
  entries.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
  return { entries, truncated };
};
