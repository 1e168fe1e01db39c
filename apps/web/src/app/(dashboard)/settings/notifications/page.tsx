import { sessionMember } from "~/server/lanes/session-role";
import { NotificationsEditor } from "./notifications-editor";

export default async function NotificationsPage() {
  const { isAdmin } = await sessionMember();
  return (
    <>
      <h1>Notifications</h1>
      <p className="muted">
        When a run succeeds, fails or is cancelled, each enabled endpoint listening to that event
        gets a signed JSON POST (header <code>X-Switchyard-Signature</code>, verified as
        docs/triggers.md shows). A receiver that does not answer 2xx within 10 s is retried with
        backoff, six times in all.
      </p>
      {isAdmin ? <NotificationsEditor /> : <p role="status">Only admins manage notifications.</p>}
    </>
  );
}
