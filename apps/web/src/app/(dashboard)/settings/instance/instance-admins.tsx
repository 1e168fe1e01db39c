"use client";
/** Who administers the installation, and where each one's role comes from. */
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "~/trpc/react";

export function InstanceAdmins() {
  const trpc = useTRPC();
  const admins = useQuery(trpc.instance.admins.queryOptions());
  if (admins.isPending) return <p className="muted">Loading…</p>;
  if (admins.error)
    return (
      <p className="error" role="alert">
        {admins.error.message}
      </p>
    );
  return (
    <>
      <ul aria-label="Instance admins">
        {admins.data.map((a) => (
          <li key={a.id}>
            {a.name} <span className="muted">{a.email}</span>{" "}
            <span className="muted small">
              {a.source === "seed"
                ? "(made by the seed on first start)"
                : "(named by SWITCHYARD_INSTANCE_ADMINS)"}
            </span>
          </li>
        ))}
      </ul>
      <p className="muted small">
        Name more in the server&apos;s <code>SWITCHYARD_INSTANCE_ADMINS</code> (emails,
        comma-separated): each becomes an instance admin once its account&apos;s email is verified.
      </p>
    </>
  );
}
