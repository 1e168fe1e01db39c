"use client";
/**
 * The header's navigation and account controls. On a wide screen they sit in the header;
 * on a narrow one they fold behind a Menu button (aria-expanded, Escape closes it and
 * gives focus back to the button, following a link closes it).
 */
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef, useState, type ReactNode } from "react";
import type { NavItem } from "~/app/(dashboard)/nav-items";
import { useTRPC } from "~/trpc/react";

/** How many open waits the person may answer, beside "Waiting for you"; nothing at none. */
function WaitCount() {
  const trpc = useTRPC();
  const count = useQuery({
    ...trpc.waits.count.queryOptions(),
    refetchInterval: 10_000,
  });
  const open = count.data?.open ?? 0;
  if (open === 0) return null;
  return (
    <span className="nav-count" data-testid="wait-count" aria-label={`${open} waiting`}>
      {open}
    </span>
  );
}

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
            {items.map((item) => (
              <li key={item.href}>
                <Link
                  href={item.href}
                  aria-current={
                    [item.href, ...(item.current ?? [])].some((href) => isCurrent(pathname, href))
                      ? "page"
                      : undefined
                  }
                >
                  {item.label}
                  {item.count === "waits" ? <WaitCount /> : null}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="topbar-side">{children}</div>
      </div>
    </>
  );
}
