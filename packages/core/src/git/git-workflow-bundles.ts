/**
 * The workflows a synced folder holds: each `*.yaml` (or `*.yml`) directly in it is one,
 * and its bundle is that file, at the bundle's root, with the folder's other files beside
 * it (its subfolders, such as `prompts/` and `scripts/`, and files that are not workflows),
 * so the paths a workflow names resolve as they do in a checkout.
 */
export type GitWorkflowBundle = {
  /** the file's path in the synced folder */
  path: string;
  entry: string;
  files: Record<string, string>;
};

const WORKFLOW_FILE = /^[^/]+\.ya?ml$/;

export const gitWorkflowBundles = (folder: Record<string, string>): GitWorkflowBundle[] => {
  const paths = Object.keys(folder).sort();
  const workflows = paths.filter((p) => WORKFLOW_FILE.test(p));
  const shared = Object.fromEntries(
    paths.filter((p) => !WORKFLOW_FILE.test(p)).map((p) => [p, folder[p]!]),
  );
  return workflows.map((path) => ({
    path,
    entry: path,
    files: { ...shared, [path]: folder[path]! },
  }));
};
