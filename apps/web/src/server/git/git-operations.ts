/**
 * The team's linked git repositories for the API: linking checks the URL (the egress rule,
 * or a local path under a folder the instance allows), the branch and the folder before
 * anything is stored, seals the token and a fresh webhook secret, and shows the secret once.
 */
import { randomBytes } from "node:crypto";
import { newCredentialId, sealSecret, type Keyring } from "@switchyard/core/crypto";
import { checkEgressUrlAt } from "@switchyard/core/egress";
import { AppError } from "@switchyard/core/errors";
import {
  checkGitFolder,
  checkGitRef,
  checkLocalGitPath,
  isLocalGitPath,
} from "@switchyard/core/git";
import type { Role } from "@switchyard/core/policy";
import { newSigningSecret } from "@switchyard/core/triggers";
import {
  createGitSource,
  deleteGitSource,
  getGitSource,
  gitSourceHolder,
  listGitSources,
  type Db,
} from "@switchyard/db";
import type { z } from "zod";
import type { gitFileResult, linkGitSourceInput } from "../contract/git.types";
import type { WebEgress } from "../egress";
import { syncGitSource } from "./sync-git-source";

type Caller = { teamId: string; userId: string; role: Role };
type Deps = { db: Db; keyring: () => Keyring; egress: WebEgress };

type SourceRow = NonNullable<Awaited<ReturnType<typeof getGitSource>>>;

const STATUSES = ["ok", "invalid", "failed"] as const;

/** The answer for a source: never its token, only whether it has one. */
export const gitSourceView = (row: SourceRow) => ({
  id: row.id,
  url: row.url,
  branch: row.branch,
  folder: row.folder,
  username: row.username,
  hasToken: row.tokenCredentialId !== null,
  syncIntervalMinutes: row.syncIntervalMinutes,
  nextSyncAt: row.nextSyncAt,
  syncing: row.syncingSince !== null,
  lastSyncAt: row.lastSyncAt,
  lastCommit: row.lastCommit,
  lastStatus: STATUSES.find((s) => s === row.lastStatus) ?? null,
  lastError: row.lastError,
  lastFiles: row.lastFiles as z.input<typeof gitFileResult>[],
  webhookPath: `/api/hooks/git/${row.id}`,
  workflows: row.workflows.map((w) => ({ id: w.id, name: w.name, path: w.gitPath })),
  createdAt: row.createdAt,
});

export const listTeamGitSources = async (db: Db, caller: Caller) =>
  (await listGitSources(db, caller.teamId)).map(gitSourceView);

export const readGitSource = async (db: Db, caller: Caller, id: string) => {
  const row = await getGitSource(db, caller.teamId, id);
  if (!row) throw new AppError("NOT_FOUND", "no such git repository in this team");
  return gitSourceView(row);
};

const checkUrl = (url: string, egress: WebEgress) => {
  if (isLocalGitPath(url)) {
    checkLocalGitPath(url, egress.gitLocalRoots ?? []);
    return url.replace(/\/+$/, "") || "/";
  }
  return checkEgressUrlAt(egress.allow, url).href;
};

export const linkGitSource = async (
  deps: Deps,
  caller: Caller,
  input: z.output<typeof linkGitSourceInput>,
) => {
  const url = checkUrl(input.url.trim(), deps.egress);
  const branch = checkGitRef(input.branch.trim());
  const folder = checkGitFolder(input.folder);
  const id = `git_${randomBytes(12).toString("hex")}`;
  const keyring = deps.keyring();
  const seal = (what: "token" | "webhook", value: string) => {
    const credentialId = newCredentialId();
    const envelope = sealSecret(
      keyring,
      { teamId: caller.teamId, credentialId, name: gitSourceHolder(id, what) },
      value,
    );
    return { credentialId, envelope };
  };
  const webhookSecret = newSigningSecret("gitwh");
  const token = input.token?.trim();
  const row = await createGitSource(deps.db, {
    id,
    teamId: caller.teamId,
    actorUserId: caller.userId,
    url,
    branch,
    folder,
    username: input.username?.trim() || "x-access-token",
    syncIntervalMinutes: input.syncIntervalMinutes ?? null,
    ...(token ? { token: seal("token", token) } : {}),
    webhook: seal("webhook", webhookSecret),
  });
  return { source: gitSourceView(row), webhookSecret };
};

export const syncTeamGitSource = (deps: Deps, caller: Caller, id: string) =>
  syncGitSource(deps, {
    teamId: caller.teamId,
    sourceId: id,
    actor: { userId: caller.userId, role: caller.role },
  });

export const unlinkGitSource = async (db: Db, caller: Caller, id: string) => {
  const gone = await deleteGitSource(db, { teamId: caller.teamId, id, actorUserId: caller.userId });
  if (!gone) throw new AppError("NOT_FOUND", "no such git repository in this team");
  return gone;
};
