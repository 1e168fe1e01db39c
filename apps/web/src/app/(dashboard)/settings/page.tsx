/** Settings: every settings page, in its group, with what it is for. */
import Link from "next/link";
import { auth } from "~/server/auth/auth";
import { instanceAdminOf } from "~/server/instance/instance-admin";
import { db } from "~/server/services";
import { visibleSettings } from "../nav-items";

export default async function SettingsPage() {
  const session = await auth();
  const admin = session?.user.id ? await instanceAdminOf(db(), session.user.id) : false;
  return (
    <>
      <h1>Settings</h1>
      {visibleSettings(admin).map((group) => (
        <section
          key={group.title}
          className="settings-index"
          aria-labelledby={`index-${group.slug}`}
        >
          <h2 id={`index-${group.slug}`}>{group.title}</h2>
          <ul>
            {group.items.map((item) => (
              <li key={item.href}>
                <Link href={item.href}>{item.label}</Link>
                <span className="muted">{item.about}</span>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}
