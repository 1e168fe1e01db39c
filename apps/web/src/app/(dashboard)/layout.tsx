import Link from "next/link";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { auth, signOut } from "~/server/auth/auth";
import { instanceMe } from "~/server/instance/instance-operations";
import { db } from "~/server/services";
import { NavMenu } from "~/components/nav-menu";
import { ThemeToggle, type ThemeChoice } from "~/components/theme-toggle";
import { WorkerStatus } from "~/components/worker-status";
import { TrpcProvider } from "~/trpc/react";
import { navItems } from "./nav-items";
import { TeamSwitcher } from "./team-switcher";

export const dynamic = "force-dynamic";

/** The theme cookie as a choice; anything else is "system". */
const themeOf = (cookie: string | undefined): ThemeChoice =>
  cookie === "light" || cookie === "dark" ? cookie : "system";

/** A signed-in user in no team (a first sign-in through the issuer, say): what they can do next. */
const NoTeam = ({ mayCreateTeams }: { mayCreateTeams: boolean }) => (
  <section className="card" aria-labelledby="no-team-title">
    <h1 id="no-team-title">You are not in a team yet</h1>
    {mayCreateTeams ? (
      <p>
        <Link href="/teams/new">Create a team</Link> of your own, or open the invitation link
        someone in a team sent you.
      </p>
    ) : (
      <p>
        Open the invitation link someone in a team sent you. On this installation only instance
        admins create teams: ask one to create yours and invite you.
      </p>
    )}
  </section>
);

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const session = await auth();
  if (!session?.user.id) redirect("/login");
  const theme = themeOf((await cookies()).get("theme")?.value);
  const { instanceAdmin, mayCreateTeams } = await instanceMe(db(), session.user.id);
  const items = navItems.filter((item) => !item.instanceAdmin || instanceAdmin);
  return (
    // A fresh client cache per team, so nothing of the previous team shows after a switch.
    <TrpcProvider key={session.teamId ?? "none"}>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="topbar">
        <Link href="/overview" className="brand">
          Switchyard
        </Link>
        <NavMenu items={items}>
          <TeamSwitcher
            userId={session.user.id}
            teamId={session.teamId}
            mayCreateTeams={mayCreateTeams}
          />
          <WorkerStatus />
          <form
            action={async () => {
              "use server";
              await signOut({ redirectTo: "/login" });
            }}
          >
            <span className="muted user-email">{session.user.email}</span>
            <button type="submit" className="link">
              Sign out
            </button>
          </form>
          <ThemeToggle initial={theme} />
        </NavMenu>
      </header>
      <main id="main" className="page" tabIndex={-1}>
        {session.teamId ? children : <NoTeam mayCreateTeams={mayCreateTeams} />}
      </main>
    </TrpcProvider>
  );
}
