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

export function TokensEditor() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.tokens.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.tokens.list.queryKey() });
  const create = useMutation(trpc.tokens.create.mutationOptions({ onSuccess: refresh }));
  const revoke = useMutation(trpc.tokens.revoke.mutationOptions({ onSuccess: refresh }));
  const [name, setName] = useState("");
  const mine = useRole();
  const [role, setRole] = useState<Role | "">("");
  const [days, setDays] = useState(0);
  // Roles up to the caller's own.
  const offered = mine ? ROLES.slice(ROLES.indexOf(mine)) : [];

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
            {EXPIRIES.map((x) => (
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
        <table className="table">
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
            {(list.data ?? []).map((t) => (
              <tr key={t.id} data-token={t.name}>
                <td>{t.name}</td>
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
    </>
  );
}
