import { MembersEditor } from "./members-editor";
import "../connectors/settings-pages.css";

export default function MembersPage() {
  return (
    <>
      <h1>Members</h1>
      <p className="muted">
        Who is in this team and what each may do: owners and admins manage the team, members save and run workflows, viewers
        only look. Admins invite people by link and change roles; only an owner grants or takes away the owner role, and a team
        always keeps one owner.
      </p>
      <MembersEditor />
    </>
  );
}
