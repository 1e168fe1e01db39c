"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";

export function TokensEditor() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.tokens.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.tokens.list.queryKey() });
  const create = useMutation(trpc.tokens.create.mutationOptions({ onSuccess: refresh }));
  const revoke = useMutation(trpc.tokens.revoke.mutationOptions({ onSuccess: refresh }));
  const [name, setName] = useState("");

  return (
    <>
      <form
        className="card token-form"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate({ name }, { onSuccess: () => setName("") });
        }}
      >
        <label>
          Token name
          <input value={name} onChange={(e) => setName(e.target.value)} placeholder="ci-deploy" required />
        </label>
        <button type="submit" className="primary" disabled={create.isPending}>
          Create token
        </button>
      </form>
      {create.data ? (
        <div className="card new-token" role="status">
          Copy this token now; it will not be shown again:
          <pre className="output" data-testid="new-token">
            {create.data.token}
          </pre>
        </div>
      ) : null}
      <table className="table">
        <thead>
          <tr>
            <th>Name</th>
            <th>Token</th>
            <th>Made by</th>
            <th>Created</th>
            <th>Last used</th>
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
              <td data-made-by>
                {t.createdBy.name} <span className="muted small">{t.createdBy.email}</span>
              </td>
              <td>{t.createdAt.toLocaleString()}</td>
              <td>{t.lastUsedAt ? t.lastUsedAt.toLocaleString() : "never"}</td>
              <td className="right">
                <button type="button" className="link" onClick={() => revoke.mutate({ id: t.id })}>
                  Revoke
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
