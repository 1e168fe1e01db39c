/**
 * A folder tree as text, to compare two trees in a test: every entry below the folder by
 * path, with its type and, for a file, its permission bits and content, for a link its target.
 */
import { lstat, readdir, readFile, readlink } from "node:fs/promises";
import path from "node:path";

export const treeListing = async (dir: string) => {
  const out: Record<string, string> = {};
  for (const name of (await readdir(dir, { recursive: true })).sort()) {
    const full = path.join(dir, name);
    const stats = await lstat(full);
    if (stats.isSymbolicLink()) out[name] = `link ${await readlink(full)}`;
    else if (stats.isDirectory()) out[name] = "dir";
    else out[name] = `file ${(stats.mode & 0o777).toString(8)} ${await readFile(full, "utf8")}`;
  }
  return out;
};
