import { sessionMember } from "~/server/lanes/session-role";
import { AuditLog } from "./audit-log";
import "../connectors/settings-pages.css";

export default async function AuditPage() {
  const { isAdmin } = await sessionMember();
  return (
    <>
      <h1>Audit log</h1>
      <p className="muted">
        Who changed what in this team, and when: connectors and their credentials, console calls,
        lanes, variables and models. Entries name what changed, never a secret&apos;s value.
      </p>
      {isAdmin ? <AuditLog /> : <p role="status">Only admins see the audit log.</p>}
    </>
  );
}
