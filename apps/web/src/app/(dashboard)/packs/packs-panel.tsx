"use client";
/**
 * The team's workflow packs: each with its version, source and workflows, and a form that
 * installs a pack from its .tar.gz or from a GitHub release (owner/repo[@version]).
 */
import Link from "next/link";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";

type Problem = { code: string; message: string; file?: string; line?: number };

const problemsOf = (error: unknown): Problem[] => {
  const details = (
    error as { data?: { details?: { diagnostics?: Problem[]; errors?: Problem[] } } }
  )?.data?.details;
  return details?.diagnostics ?? details?.errors ?? [];
};

const base64Of = async (file: File) => {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
};

export function PacksPanel() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.packs.list.queryOptions());
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.packs.list.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.workflows.list.queryKey() });
  };
  const [source, setSource] = useState("");
  const [tokenSecret, setTokenSecret] = useState("");
  const install = useMutation(trpc.packs.install.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.packs.remove.mutationOptions({ onSuccess: refresh }));
  const failed = install.error ?? remove.error;
  const problems = install.error ? problemsOf(install.error) : [];

  return (
    <>
      <div className="table-scroll">
        <table className="table">
          <thead>
            <tr>
              <th>Pack</th>
              <th>Version</th>
              <th>Source</th>
              <th>Workflows</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {(list.data ?? []).map((p) => (
              <tr key={p.name} id={p.name}>
                <td>
                  <code>{p.name}</code>
                  {p.description ? <div className="muted small">{p.description}</div> : null}
                </td>
                <td>
                  {p.version} <span className="muted small">(install {p.number})</span>
                </td>
                <td>{p.source}</td>
                <td>
                  {p.workflows.map((w, i) => (
                    <span key={w.id}>
                      {i > 0 ? ", " : ""}
                      <Link href={`/workflows/${w.id}`}>{w.name}</Link>
                    </span>
                  ))}
                </td>
                <td>
                  <button
                    type="button"
                    className="link"
                    onClick={() => {
                      if (confirm(`Remove pack ${p.name}? Its workflows are archived; runs stay.`))
                        remove.mutate({ name: p.name });
                    }}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
            {list.data?.length === 0 ? (
              <tr>
                <td colSpan={5} className="muted">
                  No packs installed.
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
      <section className="card" aria-label="Install a pack">
        <h2>Install or update a pack</h2>
        <label>
          Pack archive (.tar.gz)
          <input
            type="file"
            accept=".tar.gz,.tgz,application/gzip"
            disabled={install.isPending}
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) void base64Of(file).then((archive) => install.mutate({ archive }));
              e.target.value = "";
            }}
          />
        </label>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const secret = tokenSecret.trim();
            install.mutate({ source: source.trim(), ...(secret ? { tokenSecret: secret } : {}) });
          }}
        >
          <label>
            Or a GitHub release
            <input
              value={source}
              onChange={(e) => setSource(e.target.value)}
              placeholder="owner/repo or owner/repo@1.2.0"
            />
          </label>
          <label>
            Token secret, for a private repository (optional)
            <input
              value={tokenSecret}
              onChange={(e) => setTokenSecret(e.target.value)}
              placeholder="the team secret holding a GitHub token"
            />
          </label>
          <button type="submit" className="primary" disabled={!source.trim() || install.isPending}>
            Install
          </button>
        </form>
        {install.data ? (
          <p className="ok-text" role="status">
            Installed {install.data.name} {install.data.version} (install {install.data.number}):{" "}
            {install.data.workflows.map((w) => `${w.name} v${w.version}`).join(", ")}.
          </p>
        ) : null}
        {install.data && install.data.warnings.length > 0 ? (
          <ul className="muted" role="note">
            {install.data.warnings.map((w, i) => (
              <li key={i}>
                {w.message} <code>{w.code}</code>
              </li>
            ))}
          </ul>
        ) : null}
        {failed ? (
          <div className="error" role="alert">
            <p>{failed.message}</p>
            {problems.length > 1 ? (
              <ul>
                {problems.map((d, i) => (
                  <li key={i}>
                    {d.file ? `${d.file}${d.line ? `:${d.line}` : ""}: ` : ""}
                    {d.message} <code>{d.code}</code>
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : null}
      </section>
    </>
  );
}
