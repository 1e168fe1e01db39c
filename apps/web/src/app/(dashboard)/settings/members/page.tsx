import { env } from "~/env";
import { auth } from "~/server/auth/auth";
import { instanceAdminOf } from "~/server/instance/instance-admin";
import { db } from "~/server/services";
import { MembersEditor, type ResetLinks } from "./members-editor";
import "../connectors/settings-pages.css";

/** Mailed where the server can mail; else shown, to an instance admin only. */
const resetLinksFor = async (userId: string | undefined): Promise<ResetLinks> => {
  if (env().SWITCHYARD_SMTP_URL) return "mailed";
  return userId && (await instanceAdminOf(db(), userId)) ? "shown" : "none";
};

export default async function MembersPage() {
  const session = await auth();
  const resetLinks = await resetLinksFor(session?.user.id);
  return (
    <>
      <h1>Members</h1>
      <p className="muted">
        Who is in this team and what each may do: owners and admins manage the team, members save
        and run workflows, viewers only look. Admins invite people by link and change roles; only an
        owner grants or takes away the owner role, and a team always keeps one owner.
      </p>
      <MembersEditor resetLinks={resetLinks} />
    </>
  );
}
