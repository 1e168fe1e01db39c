/**
 * Hands a whole folder tree to a step uid, for a workspace that steps of another uid wrote
 * before (a run resumed on another worker or slot). Symlinks are re-owned, never followed.
 */
import { lchown, readdir } from "node:fs/promises";
import path from "node:path";

export const chownTree = async (root: string, uid: number, gid: number = uid): Promise<void> => {
  await lchown(root, uid, gid);
  const entries = await readdir(root, { withFileTypes: true });
  for (const entry of entries) {
    const full = path.join(root, entry.name);
    if (entry.isDirectory()) await chownTree(full, uid, gid);
    else await lchown(full, uid, gid);
  }
};
