"use client";
/**
 * The header's navigation and account controls. On a wide screen they sit in the header;
 * on a narrow one they fold behind a Menu button (aria-expanded, Escape closes it and
 * gives focus back to the button, following a link closes it).
 */
import Link from "next/link";
import { usePathname } from "next/navigation";
import { Fragment, useEffect, useRef, useState, type ReactNode } from "react";
import type { NavItem } from "~/app/(dashboard)/nav-items";

const isCurrent = (pathname: string, href: string) =>
  pathname === href || pathname.startsWith(`${href}/`);

export function NavMenu({ items, children }: { items: readonly NavItem[]; children: ReactNode }) {
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);
  return (
    <>
      <button
        ref={button}
        type="button"
        className="nav-toggle"
        aria-expanded={open}
        aria-controls="site-menu"
        onClick={() => setOpen((o) => !o)}
      >
        <span aria-hidden="true">{open ? "✕" : "☰"}</span> Menu
      </button>
      <div id="site-menu" className={`topbar-menu${open ? " open" : ""}`}>
        <nav className="main-nav" aria-label="Main">
          <ul>
            {items.map((item, i) => (
              <Fragment key={item.href}>
                {i > 0 && items[i - 1]!.section !== item.section ? (
                  <li className="nav-sep" aria-hidden="true" />
                ) : null}
                <li>
                  <Link
                    href={item.href}
                    aria-current={isCurrent(pathname, item.href) ? "page" : undefined}
                  >
                    {item.label}
                  </Link>
                </li>
              </Fragment>
            ))}
          </ul>
        </nav>
        <div className="topbar-side">{children}</div>
      </div>
    </>
  );
}
