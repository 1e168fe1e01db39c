/** Workflows kept in a git repository: reading a folder at a branch's head, its workflows, push webhooks. */
export { fetchGitFolder, isLocalGitPath, GIT_FOLDER_LIMITS } from "./fetch-git-folder";
export type { GitFolder, GitFolderRequest } from "./fetch-git-folder";
export { checkGitFolder, checkGitRef } from "./git-source-fields";
export { gitWorkflowBundles, type GitWorkflowBundle } from "./git-workflow-bundles";
export { verifyPushWebhook, type PushWebhook } from "./push-webhook";
