"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { LoadState } from "~/components/load-state";
import { SecretOnce } from "~/components/secret-once";
import { useTRPC } from "~/trpc/react";

type Diagnostic = { code: string; message: string; line?: number; column?: number };
type FileResult = {
  path: string;
  workflow: string | null;
  status: "saved" | "unchanged" | "invalid" | "removed";
  version: number | null;
  diagnostics: Diagnostic[];
};

const at = (d: Diagnostic) =>
  d.line !== undefined
    ? `line ${d.line}${d.column !== undefined ? `, column ${d.column}` : ""}: `
    : "";

function SyncFiles({ files }: { files: FileResult[] }) {
  if (files.length === 0) return <p className="muted small">No workflow files in the folder.</p>;
  return (
    <ul className="small" aria-label="Files of the last sync">
      {files.map((f) => (
        <li key={f.path} data-git-file={f.path} data-status={f.status}>
          <code>{f.path}</code> <span className="badge">{f.status}</span>
          {f.version !== null ? <> version {f.version}</> : null}
          {f.status === "invalid" ? (
            <ul>
              {f.diagnostics.map((d, i) => (
                <li key={i} className="error wrap-anywhere">
                  {at(d)}
                  {d.message} <span className="muted">({d.code})</span>
                </li>
              ))}
            </ul>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

function LinkForm({ onLinked }: { onLinked: (secret: string, path: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const link = useMutation(
    trpc.git.link.mutationOptions({
      onSuccess: (made) => {
        void queryClient.invalidateQueries({ queryKey: trpc.git.list.queryKey() });
        onLinked(made.webhookSecret, made.source.webhookPath);
        setToken("");
      },
    }),
  );
  const [url, setUrl] = useState("");
  const [branch, setBranch] = useState("main");
  const [folder, setFolder] = useState("");
  const [token, setToken] = useState("");
  const [every, setEvery] = useState("");
  return (
    <form
      className="card"
      aria-label="Link a repository"
      onSubmit={(e) => {
        e.preventDefault();
        link.mutate({
          url,
          branch,
          folder,
          ...(token ? { token } : {}),
          syncIntervalMinutes: every ? Number(every) : null,
        });
      }}
    >
      <label>
        Repository URL
        <input
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder="https://github.com/acme/workflows.git"
          required
        />
      </label>
      <label>
        Branch
        <input value={branch} onChange={(e) => setBranch(e.target.value)} required />
      </label>
      <label>
        Folder
        <input value={folder} onChange={(e) => setFolder(e.target.value)} placeholder="workflows" />
      </label>
      <label>
        Access token (for a private repository; stored encrypted, never shown again)
        <input
          type="password"
          autoComplete="off"
          value={token}
          onChange={(e) => setToken(e.target.value)}
        />
      </label>
      <label>
        Sync every (minutes; empty: on demand and by webhook only)
        <input type="number" min={5} value={every} onChange={(e) => setEvery(e.target.value)} />
      </label>
      <button type="submit" className="primary" disabled={link.isPending}>
        Link repository
      </button>
      {link.error ? (
        <p className="error" role="alert">
          {link.error.message}
        </p>
      ) : null}
    </form>
  );
}

export function GitSources({ isAdmin }: { isAdmin: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const sources = useQuery(trpc.git.list.queryOptions());
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.git.list.queryKey() });
  const sync = useMutation(trpc.git.sync.mutationOptions({ onSettled: refresh }));
  const unlink = useMutation(trpc.git.unlink.mutationOptions({ onSuccess: refresh }));
  const [secret, setSecret] = useState<{ secret: string; path: string } | null>(null);
  const failed = sync.error ?? unlink.error;
  return (
    <>
      {isAdmin ? (
        <LinkForm onLinked={(s, path) => setSecret({ secret: s, path })} />
      ) : (
        <p role="status">Only admins link repositories; members sync them.</p>
      )}
      {secret ? (
        <SecretOnce
          secret={secret.secret}
          testId="git-webhook-secret"
          onDone={() => setSecret(null)}
        >
          Add a push webhook to the repository: URL{" "}
          <code>{`${window.location.origin}${secret.path}`}</code>, content type JSON, and this
          secret (GitHub and Gitea sign with it, GitLab sends it as the token). Copy it now; it will
          not be shown again:
        </SecretOnce>
      ) : null}
      <h2>Repositories</h2>
      {failed ? (
        <p className="error" role="alert">
          {failed.message}
        </p>
      ) : null}
      <LoadState query={sources} what="repositories" />
      {sources.data?.length === 0 ? <p className="muted">No repository linked yet.</p> : null}
      <ul className="card-list">
        {(sources.data ?? []).map((s) => (
          <li key={s.id} className="card wrap-anywhere" data-git-source={s.url}>
            <p>
              <code>{s.url}</code> branch <code>{s.branch}</code>
              {s.folder ? (
                <>
                  {" "}
                  folder <code>{s.folder}</code>
                </>
              ) : null}
              {s.hasToken ? <span className="badge">token</span> : null}
              {s.syncIntervalMinutes ? (
                <span className="small muted"> every {s.syncIntervalMinutes} min</span>
              ) : null}
            </p>
            <p className="small">
              {s.syncing ? (
                <span className="badge">syncing</span>
              ) : s.lastSyncAt ? (
                <>
                  Last sync {new Date(s.lastSyncAt).toLocaleString()}:{" "}
                  <span className="badge" data-testid="git-last-status">
                    {s.lastStatus}
                  </span>
                  {s.lastCommit ? (
                    <>
                      {" "}
                      at commit <code>{s.lastCommit.slice(0, 12)}</code>
                    </>
                  ) : null}
                </>
              ) : (
                <span className="muted">Never synced.</span>
              )}
            </p>
            {s.lastError ? <p className="error small">{s.lastError}</p> : null}
            {s.lastSyncAt ? <SyncFiles files={s.lastFiles} /> : null}
            {s.workflows.length > 0 ? (
              <p className="small">
                Workflows:{" "}
                {s.workflows.map((w, i) => (
                  <span key={w.id}>
                    {i > 0 ? ", " : null}
                    <Link href={`/workflows/${w.id}`}>{w.name}</Link>
                  </span>
                ))}
              </p>
            ) : null}
            <p>
              <button
                type="button"
                className="primary"
                onClick={() => sync.mutate({ id: s.id })}
                disabled={sync.isPending}
              >
                Sync now
              </button>{" "}
              {isAdmin ? (
                <button
                  type="button"
                  className="link"
                  onClick={() => {
                    if (window.confirm(`Unlink ${s.url}? Its workflows stay, editable.`))
                      unlink.mutate({ id: s.id });
                  }}
                  disabled={unlink.isPending}
                >
                  Unlink
                </button>
              ) : null}
            </p>
          </li>
        ))}
      </ul>
    </>
  );
}
