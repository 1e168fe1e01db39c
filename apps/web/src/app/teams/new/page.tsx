/**
 * Makes a new team: instance admins may, and anyone when the installation's settings say
 * so (others are told why and whom to ask); the maker becomes its owner, it gets the
 * built-in lanes, and the session moves to it.
 */
import Link from "next/link";
import { redirect } from "next/navigation";
import { AppError } from "@switchyard/core/errors";
import { createTeamInput } from "~/server/contract/teams.types";
import { auth, updateSession } from "~/server/auth/auth";
import { mayCreateTeams } from "~/server/instance/instance-operations";
import { createTeam, TEAM_CREATION_CLOSED } from "~/server/team/team-operations";
import { db } from "~/server/services";

export const dynamic = "force-dynamic";

async function create(formData: FormData) {
  "use server";
  const session = await auth();
  if (!session?.user.id) redirect("/login?next=/teams/new");
  const parsed = createTeamInput.safeParse({ name: formData.get("name") });
  if (!parsed.success)
    redirect(
      `/teams/new?error=${encodeURIComponent(parsed.error.issues[0]?.message ?? "give the team a name")}`,
    );
  let teamId: string;
  try {
    teamId = (await createTeam(db(), session.user.id, parsed.data)).team.id;
  } catch (error) {
    if (error instanceof AppError)
      redirect(`/teams/new?error=${encodeURIComponent(error.userMessage)}`);
    throw error;
  }
  await updateSession({ teamId });
  redirect("/overview");
}

export default async function NewTeamPage({
  searchParams,
}: {
  searchParams: Promise<{ error?: string }>;
}) {
  const session = await auth();
  if (!session?.user.id) redirect("/login?next=/teams/new");
  const { error } = await searchParams;
  if (!(await mayCreateTeams(db(), session.user.id))) {
    return (
      <main className="login">
        <div className="card login-card">
          <h1>New team</h1>
          <p className="error" role="alert">
            You may not create a team: {TEAM_CREATION_CLOSED}.
          </p>
          <Link href="/overview">Back to the dashboard</Link>
        </div>
      </main>
    );
  }
  return (
    <main className="login">
      <form action={create} className="card login-card" aria-label="New team">
        <h1>New team</h1>
        <p className="muted">You will be its owner. Invite others from Settings → Members.</p>
        {error ? (
          <p className="error" role="alert">
            {error}
          </p>
        ) : null}
        <label>
          Team name
          <input name="name" required maxLength={80} autoComplete="organization" />
        </label>
        <button type="submit" className="primary">
          Create team
        </button>
        <Link href="/overview">Back to the dashboard</Link>
      </form>
    </main>
  );
}
