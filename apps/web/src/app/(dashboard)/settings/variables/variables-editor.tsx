"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";

export function VariablesEditor() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.variables.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.variables.list.queryKey() });
  const set = useMutation(trpc.variables.set.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.variables.delete.mutationOptions({ onSuccess: refresh }));
  const [form, setForm] = useState({ name: "", value: "", secret: true });

  return (
    <>
      <form
        className="card var-form"
        onSubmit={(e) => {
          e.preventDefault();
          set.mutate(form, { onSuccess: () => setForm({ name: "", value: "", secret: form.secret }) });
        }}
      >
        <label>
          Name
          <input value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} placeholder="API_TOKEN" required />
        </label>
        <label>
          Value
          <input
            type={form.secret ? "password" : "text"}
            autoComplete="off"
            value={form.value}
            onChange={(e) => setForm({ ...form, value: e.target.value })}
          />
        </label>
        <label className="inline">
          <input type="checkbox" checked={form.secret} onChange={(e) => setForm({ ...form, secret: e.target.checked })} /> Secret
        </label>
        <button type="submit" className="primary" disabled={set.isPending}>
          Save
        </button>
      </form>
      {set.isError || remove.isError ? (
        <p className="error" role="alert">
          {(set.error ?? remove.error)?.message}
        </p>
      ) : null}
      <table className="table">
        <thead>
          <tr>
            <th>Name</th>
            <th>Value</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {(list.data ?? []).map((v) => (
            <tr key={v.name} data-variable={v.name}>
              <td>
                <code>{v.name}</code>
              </td>
              <td>{v.secret ? <span className="badge">secret</span> : <code>{v.value}</code>}</td>
              <td className="right">
                <button type="button" className="link" onClick={() => remove.mutate({ name: v.name })}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {list.data?.length === 0 ? <p className="muted">No variables yet.</p> : null}
    </>
  );
}
