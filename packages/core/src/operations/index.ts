/** The built-in operations (http, notify, github) over a network the caller gives. */
export { createOperationPort } from "./operation-port";
export type { DesktopNotification } from "./notify-send";
export { originOfGitConfig } from "./github-repo";
export { workspaceGitRemote } from "./workspace-git-remote";
