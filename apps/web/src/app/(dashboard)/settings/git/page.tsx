import { sessionMember } from "~/server/lanes/session-role";
import { GitSources } from "./git-sources";

export default async function GitPage() {
  const { isAdmin } = await sessionMember();
  return (
    <>
      <h1>Git</h1>
      <p className="muted">
        Keep workflows in a git repository: every <code>*.yaml</code> file in the folder you name
        becomes one of the team&apos;s workflows, with the folder&apos;s other files as its bundle.
        Each sync makes a new version of each changed file, with the commit it came from; a file
        that does not validate keeps its current version. Synced workflows are read-only in the
        editor. Sync with the button, on a schedule, or from the repository&apos;s push webhook.
      </p>
      <GitSources isAdmin={isAdmin} />
    </>
  );
}
