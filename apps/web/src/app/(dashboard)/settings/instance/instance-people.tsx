"use client";
/**
 * The Instance page's people: everyone on the installation (or those whose name or email
 * holds what the admin types), whether each one's email is verified, and a password reset
 * link for any of them: mailed to their own address when the server has SMTP, otherwise
 * shown here once.
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";
import { ResetLinkResult } from "../members/reset-link-result";

export function InstancePeople({ selfId }: { selfId: string }) {
  const trpc = useTRPC();
  const [typed, setTyped] = useState("");
  const [query, setQuery] = useState("");
  const people = useQuery(trpc.instance.people.queryOptions({ query, limit: 50 }));
  const reset = useMutation(trpc.instance.issuePasswordReset.mutationOptions());
  return (
    <>
      <form
        className="audit-filter"
        role="search"
        aria-label="Find people"
        onSubmit={(e) => {
          e.preventDefault();
          setQuery(typed.trim());
        }}
      >
        <label>
          Name or email
          <input
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            placeholder="casey@example.com"
          />
        </label>
        <div className="form-actions">
          <button type="submit">Find</button>
        </div>
      </form>
      {reset.error ? (
        <p className="error" role="alert">
          {reset.error.message}
        </p>
      ) : null}
      <ResetLinkResult issued={reset.data} />
      {people.error ? (
        <p className="error" role="alert">
          {people.error.message}
        </p>
      ) : null}
      <div className="table-scroll">
        <table className="table" aria-label="People">
          <thead>
            <tr>
              <th>Name</th>
              <th>Email</th>
              <th>Teams</th>
              <th>Signs in with</th>
              <th>
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {(people.data ?? []).map((p) => (
              <tr key={p.id} data-person={p.email}>
                <td>{p.name}</td>
                <td>
                  {p.email}{" "}
                  {p.emailVerified ? null : <span className="muted small">(not verified)</span>}
                </td>
                <td>{p.teams}</td>
                <td>{p.hasPassword ? "password" : "single sign-on"}</td>
                <td className="right">
                  {p.id === selfId ? null : (
                    <button
                      type="button"
                      className="link"
                      disabled={reset.isPending}
                      onClick={() => reset.mutate({ userId: p.id })}
                    >
                      Reset password
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {people.isPending ? <p className="muted">Loading…</p> : null}
      {people.data && people.data.length === 0 ? (
        <p className="muted">Nobody{query ? ` matches "${query}"` : ""}.</p>
      ) : null}
    </>
  );
}
