import { Suspense } from "react";
import { sessionMember } from "~/server/lanes/session-role";
import { ConnectorsEditor } from "./connectors-editor";
import "./settings-pages.css";

export default async function ConnectorsPage() {
  const { userId, isAdmin } = await sessionMember();
  return (
    <>
      <h1>Connectors</h1>
      <p className="muted">
        MCP servers this team hands to agents: programs the worker runs (stdio) or remote servers
        (http), each open to the lanes it lists. A credential is stored encrypted and never shown
        again: the page shows its fingerprint, who set it and when. A connector uses the team&apos;s
        account, or each member&apos;s own, which every member connects here.
        {isAdmin ? "" : " Only admins add, change and remove connectors."}
      </p>
      <Suspense>
        <ConnectorsEditor canAdmin={isAdmin} userId={userId} />
      </Suspense>
    </>
  );
}
