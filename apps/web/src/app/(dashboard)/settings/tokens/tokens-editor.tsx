"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { LocalTime } from "~/components/local-time";
import { useTRPC } from "~/trpc/react";
import { useRole } from "~/trpc/use-role";

type Role = "owner" | "admin" | "member" | "viewer";
const ROLES: readonly Role[] = ["owner", "admin", "member", "viewer"];
const EXPIRIES = [
  { days: 0, label: "Never" },
  { days: 7, label: "7 days" },
  { days: 30, label: "30 days" },
  { days: 90, label: "90 days" },
  { days: 365, label: "1 year" },
] as const;

type Listed = {
  revokedReason:
    "revoked" | "member_removed" | "maker_revoked" | "password_changed" | "account_claimed" | null;
  revokedBy: { name: string } | null;
  madeWith: { name: string } | null;
};

/** Why a token stopped working, in words. */
const whyRevoked = (t: Listed) => {
  switch (t.revokedReason) {
    case "revoked":
    case null:
      return t.revokedBy ? `Revoked by ${t.revokedBy.name}` : "Revoked";
    case "member_removed":
      return "Its maker left the team or was removed";
    case "maker_revoked":
      return `The token it was made with${t.madeWith ? ` (${t.madeWith.name})` : ""} was revoked`;
    case "password_changed":
      return "Made after a password reset link was issued for its maker, whose password then changed";
    case "account_claimed":
      return "Its maker's unverified account was claimed by the verified owner of its email";
  }
};

export function TokensEditor() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.tokens.list.queryOptions());
  const longest = useQuery(trpc.instance.me.queryOptions()).data?.maxTokenLifetimeDays ?? null;
  // With a longest lifetime, no longer choices, and "Never" is that longest.
  const expiries =
    longest === null
      ? EXPIRIES
      : [
          { days: 0, label: `${longest} days (the longest here)` },
          ...EXPIRIES.filter((x) => x.days > 0 && x.days < longest),
        ];
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.tokens.list.queryKey() });
  const create = useMutation(trpc.tokens.create.mutationOptions({ onSuccess: refresh }));
  const revoke = useMutation(trpc.tokens.revoke.mutationOptions({ onSuccess: refresh }));
  const [name, setName] = useState("");
  const mine = useRole();
  const [role, setRole] = useState<Role | "">("");
  const [days, setDays] = useState(0);
  // Roles up to the caller's own.
  const offered = mine ? ROLES.slice(ROLES.indexOf(mine)) : [];
  const live = (list.data ?? []).filter((t) => t.revokedAt === null);
  const revoked = (list.data ?? []).filter((t) => t.revokedAt !== null);

  return (
    <>
      <form
        className="card token-form"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate(
            {
              name,
              role: role === "" ? undefined : role,
              expiresInDays: days === 0 ? undefined : days,
            },
            { onSuccess: () => setName("") },
          );
        }}
      >
        <label>
          Token name
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="ci-deploy"
            required
          />
        </label>
        <label>
          Role
          <select value={role} onChange={(e) => setRole(e.target.value as Role | "")}>
            <option value="">{mine ? `${mine} (yours)` : "yours"}</option>
            {offered
              .filter((r) => r !== mine)
              .map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
          </select>
        </label>
        <label>
          Expires
          <select value={days} onChange={(e) => setDays(Number(e.target.value))}>
            {expiries.map((x) => (
              <option key={x.days} value={x.days}>
                {x.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="primary" disabled={create.isPending}>
          Create token
        </button>
      </form>
      {create.error ? (
        <p className="error" role="alert">
          {create.error.message}
        </p>
      ) : null}
      {create.data ? (
        <div className="card new-token" role="status">
          Copy this token now; it will not be shown again:
          <pre className="output" data-testid="new-token">
            {create.data.token}
          </pre>
        </div>
      ) : null}
      <div className="table-scroll">
        <table className="table" aria-label="Live tokens">
          <thead>
            <tr>
              <th>Name</th>
              <th>Token</th>
              <th>Role</th>
              <th>Made by</th>
              <th>Created</th>
              <th>Last used</th>
              <th>Expires</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {live.map((t) => (
              <tr key={t.id} data-token={t.name}>
                <td>
                  {t.name}
                  {t.madeWith ? (
                    <span className="muted small"> made with {t.madeWith.name}</span>
                  ) : null}
                </td>
                <td>
                  <code>sy_{t.prefix}_…</code>
                </td>
                <td>{t.role ?? "owner's role"}</td>
                <td data-made-by>
                  {t.createdBy.name} <span className="muted small">{t.createdBy.email}</span>
                </td>
                <td>
                  <LocalTime value={t.createdAt} />
                </td>
                <td data-last-used>
                  <LocalTime value={t.lastUsedAt} relative fallback="never" />
                </td>
                <td>
                  <LocalTime value={t.expiresAt} fallback="never" />
                </td>
                <td className="right">
                  <button
                    type="button"
                    className="link"
                    onClick={() => revoke.mutate({ id: t.id })}
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {revoked.length > 0 ? (
        <>
          <h2>Revoked in the last 30 days</h2>
          <div className="table-scroll">
            <table className="table" aria-label="Revoked tokens">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Token</th>
                  <th>Made by</th>
                  <th>Created</th>
                  <th>Revoked</th>
                  <th>Why</th>
                </tr>
              </thead>
              <tbody>
                {revoked.map((t) => (
                  <tr key={t.id} data-revoked-token={t.name}>
                    <td>{t.name}</td>
                    <td>
                      <code>sy_{t.prefix}_…</code>
                    </td>
                    <td>
                      {t.createdBy.name} <span className="muted small">{t.createdBy.email}</span>
                    </td>
                    <td>
                      <LocalTime value={t.createdAt} />
                    </td>
                    <td>
                      <LocalTime value={t.revokedAt} />
                    </td>
                    <td data-why>{whyRevoked(t)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
    </>
  );
}
