import { sessionMember } from "~/server/lanes/session-role";
import { TeamForm } from "./team-form";
import "../connectors/settings-pages.css";

export default async function TeamPage() {
  const { isAdmin } = await sessionMember();
  return (
    <>
      <h1>Team</h1>
      <p className="muted">
        The team&apos;s name, and how many of its runs may run at once. Runs past the limit wait in
        the queue, holding no worker, and start as the team&apos;s running runs end; a run that
        waits says so in its events. The operator of this installation may set a lower limit for
        every team.{isAdmin ? "" : " Only admins change these."}
      </p>
      <TeamForm canAdmin={isAdmin} />
    </>
  );
}
