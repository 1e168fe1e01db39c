"use client";
/**
 * The side navigation of the settings pages: the groups of nav-items.ts, the current page
 * marked. On a narrow screen it folds into a list the person opens ("All settings").
 */
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useState } from "react";
import type { NavGroup } from "~/app/(dashboard)/nav-items";

export function SettingsNav({ groups }: { groups: readonly NavGroup[] }) {
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  useEffect(() => setOpen(false), [pathname]);
  // The Settings page lists the groups itself.
  if (pathname === "/settings") return null;
  const current = groups.flatMap((g) => g.items).find((i) => pathname.startsWith(i.href));
  return (
    <nav className={`settings-nav${open ? " open" : ""}`} aria-label="Settings">
      <button
        type="button"
        className="settings-nav-toggle"
        aria-expanded={open}
        aria-controls="settings-nav-groups"
        onClick={() => setOpen((o) => !o)}
      >
        All settings{current ? <span className="muted"> · {current.label}</span> : null}
      </button>
      <div id="settings-nav-groups" className="settings-nav-groups">
        {groups.map((group) => (
          <div key={group.title} className="settings-nav-group">
            {/* Not a heading: the page's own headings stay the only ones with these names. */}
            <span id={`settings-group-${group.slug}`} className="settings-nav-title">
              {group.title}
            </span>
            <ul aria-labelledby={`settings-group-${group.slug}`}>
              {group.items.map((item) => (
                <li key={item.href}>
                  <Link
                    href={item.href}
                    aria-current={pathname.startsWith(item.href) ? "page" : undefined}
                  >
                    {item.label}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </nav>
  );
}
