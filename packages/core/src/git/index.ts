/** Workflows kept in a git repository: reading a folder at a branch's head, its workflows, push webhooks. */
export { checkLocalGitPath, fetchGitFolder, isLocalGitPath } from "./fetch-git-folder";
export { checkGitFolder, checkGitRef } from "./git-source-fields";
export { gitWorkflowBundles, type GitWorkflowBundle } from "./git-workflow-bundles";
export { verifyPushWebhook } from "./push-webhook";
