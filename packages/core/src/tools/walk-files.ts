/**
 * Walks a workspace folder for Glob and Grep: never follows a symlinked folder (no loops,
 * no escapes), visits at most a fixed number of entries, and yields paths relative to the
 * root in sorted order.
 */
import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";

const WALK_ENTRY_LIMIT = 200_000;

type WalkEntry = { relative: string; full: string; dirent: Dirent };
type WalkResult = { entries: WalkEntry[]; truncated: boolean };

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
      children = await readdir(dir, { withFileTypes: true });
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
