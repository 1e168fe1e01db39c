import Link from "next/link";
import { redirect } from "next/navigation";
import { AppError } from "@switchyard/core/errors";
import { membershipsOf } from "@switchyard/db";
import { auth, updateSession } from "~/server/auth/auth";
import { chooseTeam } from "~/server/auth/session-token";
import { db } from "~/server/services";

async function switchTeam(formData: FormData) {
  "use server";
  const session = await auth();
  if (!session?.user.id) redirect("/login");
  const teamId = formData.get("teamId");
  if (typeof teamId !== "string" || teamId === "")
    throw new AppError("BAD_REQUEST", "choose a team");
  // Refuses a team the user is not in; the session callback checks it again.
  await chooseTeam(db(), session.user.id, teamId);
  await updateSession({ teamId });
  redirect("/workflows");
}

/** The team the session acts in, a switch to the user's other teams, and a new team where the user may make one. */
export async function TeamSwitcher({
  userId,
  teamId,
  mayCreateTeams,
}: {
  userId: string;
  teamId: string | undefined;
  mayCreateTeams: boolean;
}) {
  const memberships = await membershipsOf(db(), userId);
  const current = memberships.find((m) => m.teamId === teamId);
  const newTeam = mayCreateTeams ? (
    <Link href="/teams/new" className="small">
      New team
    </Link>
  ) : null;
  if (memberships.length < 2)
    return (
      <span className="team-switcher">
        <span className="team-name">{current?.team.name ?? "No team"}</span> {newTeam}
      </span>
    );
  return (
    <form action={switchTeam} className="team-switcher">
      <select name="teamId" defaultValue={current?.teamId} aria-label="Team">
        {memberships.map((m) => (
          <option key={m.teamId} value={m.teamId}>
            {m.team.name}
          </option>
        ))}
      </select>
      <button type="submit">Switch team</button> {newTeam}
    </form>
  );
}
