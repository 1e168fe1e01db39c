"use client";
/**
 * The Members page's body: the team's members with their roles; admins change roles,
 * remove members and invite by link (shown once), and see and revoke pending invitations.
 * Anyone may leave the team. What a role may not do is hidden here and refused by the server.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState } from "react";
import type { AppRouter } from "~/server/trpc/root";
import { useTRPC } from "~/trpc/react";
import { can, useRole } from "~/trpc/use-role";
import { ResetLinkResult } from "./reset-link-result";

type Role = inferRouterOutputs<AppRouter>["members"]["list"][number]["role"];
const ROLES: readonly Role[] = ["owner", "admin", "member", "viewer"];

/** The roles `actor` may give: owner only by an owner. */
const grantable = (actor: Role | undefined) =>
  ROLES.filter((r) => can(actor, "admin") && (r !== "owner" || actor === "owner"));

function InviteForm({ actor }: { actor: Role }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const create = useMutation(
    trpc.invitations.create.mutationOptions({
      onSuccess: () =>
        queryClient.invalidateQueries({ queryKey: trpc.invitations.list.queryKey() }),
    }),
  );
  const [role, setRole] = useState<Role>("member");
  const [email, setEmail] = useState("");
  const [days, setDays] = useState(7);
  const link = create.data ? `${window.location.origin}${create.data.path}` : undefined;

  return (
    <>
      <form
        className="card settings-form"
        aria-label="Invite someone"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate({
            role,
            email: email.trim() === "" ? undefined : email.trim(),
            expiresInDays: days,
          });
        }}
      >
        <h2>Invite someone</h2>
        <div className="form-grid">
          <div className="field">
            <label>
              Role
              <select value={role} onChange={(e) => setRole(e.target.value as Role)}>
                {grantable(actor).map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <div className="field">
            <label>
              Email (optional: only this address may accept)
              <input
                type="email"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                placeholder="anyone holding the link"
              />
            </label>
          </div>
          <div className="field">
            <label>
              Expires after (days)
              <input
                type="number"
                min={1}
                max={30}
                value={days}
                onChange={(e) => setDays(Number(e.target.value))}
                required
              />
            </label>
          </div>
        </div>
        {create.error ? (
          <p className="error" role="alert">
            {create.error.message}
          </p>
        ) : null}
        <button type="submit" className="primary" disabled={create.isPending}>
          Create invitation link
        </button>
      </form>
      {link ? (
        <div className="card new-token" role="status">
          Send this link to the person you invite; it will not be shown again and works once, until{" "}
          {create.data!.expiresAt.toLocaleString()}:
          <pre className="output" data-testid="invitation-link">
            {link}
          </pre>
        </div>
      ) : null}
    </>
  );
}

function PendingInvitations() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.invitations.list.queryOptions());
  const revoke = useMutation(
    trpc.invitations.revoke.mutationOptions({
      onSuccess: () =>
        queryClient.invalidateQueries({ queryKey: trpc.invitations.list.queryKey() }),
    }),
  );
  if (list.isPending) return <p className="muted">Loading invitations…</p>;
  if (list.error)
    return <p className="error">Could not load the invitations: {list.error.message}</p>;
  if (list.data.length === 0) return <p className="muted">No pending invitations.</p>;
  return (
    <div className="table-scroll">
      <table className="table">
        <caption className="visually-hidden">Pending invitations</caption>
        <thead>
          <tr>
            <th>Role</th>
            <th>For</th>
            <th>Expires</th>
            <th>
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.data.map((i) => (
            <tr key={i.id}>
              <td>{i.role}</td>
              <td>{i.email ?? "anyone with the link"}</td>
              <td>{i.expiresAt.toLocaleString()}</td>
              <td className="right">
                <button
                  type="button"
                  className="link"
                  onClick={() => revoke.mutate({ id: i.id })}
                  disabled={revoke.isPending}
                >
                  Revoke
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * How this admin may hand a member a password reset link: mailed to the member (the server
 * has SMTP), shown to them once (an instance admin, no SMTP), or not at all (a team admin
 * without SMTP: an instance admin issues it).
 */
export type ResetLinks = "mailed" | "shown" | "none";

export function MembersEditor({ resetLinks }: { resetLinks: ResetLinks }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const actor = useRole();
  const me = useQuery(trpc.teams.current.queryOptions());
  const list = useQuery(trpc.members.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.members.list.queryKey() });
  const changeRole = useMutation(trpc.members.changeRole.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.members.remove.mutationOptions({ onSuccess: refresh }));
  const leave = useMutation(
    trpc.members.leave.mutationOptions({ onSuccess: () => window.location.assign("/overview") }),
  );
  const reset = useMutation(trpc.members.issuePasswordReset.mutationOptions());
  const error = changeRole.error ?? remove.error ?? leave.error ?? reset.error;
  const admin = can(actor, "admin");

  return (
    <>
      {error ? (
        <p className="error" role="alert">
          {error.message}
        </p>
      ) : null}
      <ResetLinkResult issued={reset.data} />
      {list.isPending ? (
        <p className="muted">Loading members…</p>
      ) : list.error ? (
        <p className="error">Could not load the members: {list.error.message}</p>
      ) : (
        <div className="table-scroll">
          <table className="table">
            <caption className="visually-hidden">
              Members of {me.data?.team.name ?? "the team"}
            </caption>
            <thead>
              <tr>
                <th>Name</th>
                <th>Email</th>
                <th>Role</th>
                <th>Joined</th>
                <th>
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((m) => {
                const mayTouch = admin && (m.role !== "owner" || actor === "owner");
                const mayReset =
                  resetLinks !== "none" &&
                  m.userId !== me.data?.userId &&
                  (actor === "owner" || (admin && !can(m.role, "admin")));
                return (
                  <tr key={m.userId} data-member={m.email}>
                    <td>{m.name}</td>
                    <td>{m.email}</td>
                    <td>
                      {mayTouch ? (
                        <select
                          aria-label={`Role of ${m.name}`}
                          value={m.role}
                          disabled={changeRole.isPending}
                          onChange={(e) =>
                            changeRole.mutate({ userId: m.userId, role: e.target.value as Role })
                          }
                        >
                          {grantable(actor)
                            .concat(grantable(actor).includes(m.role) ? [] : [m.role])
                            .map((r) => (
                              <option key={r} value={r}>
                                {r}
                              </option>
                            ))}
                        </select>
                      ) : (
                        m.role
                      )}
                    </td>
                    <td>{m.joinedAt.toLocaleDateString()}</td>
                    <td className="right wrap-actions">
                      {mayReset ? (
                        <button
                          type="button"
                          className="link"
                          disabled={reset.isPending}
                          onClick={() => reset.mutate({ userId: m.userId })}
                        >
                          Reset password
                        </button>
                      ) : null}{" "}
                      {mayTouch ? (
                        <button
                          type="button"
                          className="link"
                          disabled={remove.isPending}
                          onClick={() => {
                            if (
                              window.confirm(
                                `Remove ${m.name} from the team? Their sessions end at once.`,
                              )
                            )
                              remove.mutate({ userId: m.userId });
                          }}
                        >
                          Remove
                        </button>
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <p>
        <button
          type="button"
          className="link"
          disabled={leave.isPending}
          onClick={() => {
            if (window.confirm("Leave this team? You will need a new invitation to come back."))
              leave.mutate();
          }}
        >
          Leave this team
        </button>
      </p>
      {admin && resetLinks === "none" ? (
        <p className="muted small" data-testid="reset-note">
          Password reset links: this server cannot mail them to a member&apos;s own address (no
          SWITCHYARD_SMTP_URL), and a team admin is never given a way to set someone else&apos;s
          password. An instance admin issues them (Settings → Instance); a signed-in member changes
          their own on the Account page.
        </p>
      ) : null}
      {admin && actor ? (
        <>
          <InviteForm actor={actor} />
          <h2>Pending invitations</h2>
          <PendingInvitations />
        </>
      ) : null}
    </>
  );
}
