/**
 * Every settings page: the grouped side navigation beside the page (above it on a narrow
 * screen, folded). The Settings page itself lists the same groups with what each page is for.
 */
import type { ReactNode } from "react";
import { auth } from "~/server/auth/auth";
import { instanceAdminOf } from "~/server/instance/instance-admin";
import { db } from "~/server/services";
import { SettingsNav } from "~/components/settings-nav";
import { visibleSettings } from "../nav-items";

export default async function SettingsLayout({ children }: { children: ReactNode }) {
  const session = await auth();
  const admin = session?.user.id ? await instanceAdminOf(db(), session.user.id) : false;
  return (
    <div className="settings-layout">
      <SettingsNav groups={visibleSettings(admin)} />
      <div className="settings-page">{children}</div>
    </div>
  );
}
