import Link from "next/link";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { auth, signOut } from "~/server/auth/auth";
import { WorkerStatus } from "~/components/worker-status";
import { TrpcProvider } from "~/trpc/react";
import { TeamSwitcher } from "./team-switcher";

export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const session = await auth();
  if (!session?.user.id) redirect("/login");
  return (
    // A fresh client cache per team, so nothing of the previous team shows after a switch.
    <TrpcProvider key={session.teamId ?? "none"}>
      <header className="topbar">
        <Link href="/workflows" className="brand">
          Switchyard
        </Link>
        <TeamSwitcher userId={session.user.id} teamId={session.teamId} />
        <nav>
          <Link href="/workflows">Workflows</Link>
          <Link href="/runs">Runs</Link>
          <Link href="/settings/variables">Variables</Link>
          <Link href="/settings/connectors">Connectors</Link>
          <Link href="/settings/lanes">Lanes</Link>
          <Link href="/settings/models">Models</Link>
          <Link href="/settings/tokens">API tokens</Link>
          <Link href="/settings/audit">Audit log</Link>
          <Link href="/settings/account">Account</Link>
        </nav>
        <WorkerStatus />
        <form
          action={async () => {
            "use server";
            await signOut({ redirectTo: "/login" });
          }}
        >
          <span className="muted">{session.user.email}</span>{" "}
          <button type="submit" className="link">
            Sign out
          </button>
        </form>
      </header>
      <main className="page">{children}</main>
    </TrpcProvider>
  );
}
