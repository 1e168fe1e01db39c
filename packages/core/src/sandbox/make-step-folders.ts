/**
 * Lays out one run's private folders the way the sandbox needs them: the run folder
 * traversable but not listable (0711, so bwrap can resolve the binds as the step uid),
 * and the workspace, HOME and temp folder inside it private (0700) and owned by the step
 * uid when there is one. The worker (root) can still read and delete all of it.
 */
import { chmod, chown, mkdir } from "node:fs/promises";
import path from "node:path";

export type StepFolders = { root: string; workspace: string; home: string; tmp: string };

/** Makes a step's folders under `root`, owned by `owner` when given. */
export const makeStepFolders = async (
  root: string,
  owner?: { uid: number; gid?: number },
): Promise<StepFolders> => {
  await mkdir(root, { recursive: true, mode: 0o711 });
  await chmod(root, 0o711);
  const folders = {
    root,
    workspace: path.join(root, "workspace"),
    home: path.join(root, "home"),
    tmp: path.join(root, "tmp"),
  };
  for (const dir of [folders.workspace, folders.home, folders.tmp]) {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    if (owner) await chown(dir, owner.uid, owner.gid ?? owner.uid);
  }
  return folders;
};
