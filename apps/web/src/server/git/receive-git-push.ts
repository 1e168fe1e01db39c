/**
 * A push webhook for a linked git repository (POST /api/hooks/git/<source id>): the source
 * is found by its id alone, the delivery is checked with its webhook secret in the git
 * host's own way (GitHub, Gitea, GitLab; see @switchyard/core/git), and only a push to the
 * source's branch starts a sync, as the member who linked it (their role now). The sync runs
 * after the answer, which git hosts want within seconds; its outcome is kept on the source.
 * An unknown id is 404 and a bad signature 401, whatever else is true of the source.
 */
import { openSecret, type Keyring } from "@switchyard/core/crypto";
import { AppError } from "@switchyard/core/errors";
import { verifyPushWebhook } from "@switchyard/core/git";
import {
  gitSourceForWebhook,
  gitSourceHolder,
  gitSyncActorRole,
  getGitSource,
  type Db,
} from "@switchyard/db";
import type { WebEgress } from "../egress";
import { syncGitSource, type GitSyncReport } from "./sync-git-source";

export type ReceiveGitPushDeps = { db: Db; keyring: () => Keyring; egress: WebEgress };

/** Syncs a source as the member who linked it; USER.GIT.* or FORBIDDEN when that is no longer possible. */
export const syncAsLinker = async (
  deps: ReceiveGitPushDeps,
  source: { id: string; teamId: string },
): Promise<GitSyncReport> => {
  const row = await getGitSource(deps.db, source.teamId, source.id);
  const role = await gitSyncActorRole(deps.db, source.teamId, row?.createdById ?? null);
  if (!row || !role)
    throw new AppError(
      "FORBIDDEN",
      "the member who linked this repository is no longer in the team: link it again",
    );
  return syncGitSource(deps, {
    teamId: source.teamId,
    sourceId: source.id,
    actor: { userId: row.createdById, role },
  });
};

export const receiveGitPush = async (
  deps: ReceiveGitPushDeps,
  input: {
    sourceId: string;
    headers: { get: (name: string) => string | null };
    rawBody: string;
    /** what to do with the sync's promise (the route leaves it running; a test may await it) */
    background?: (sync: Promise<unknown>) => void;
  },
) => {
  const source = await gitSourceForWebhook(deps.db, input.sourceId);
  if (!source) throw new AppError("NOT_FOUND", "no such webhook");
  const secret = openSecret(
    deps.keyring(),
    {
      teamId: source.teamId,
      credentialId: source.sealed.credentialId,
      name: gitSourceHolder(source.id, "webhook"),
    },
    source.sealed.envelope,
  );
  const push = verifyPushWebhook({ headers: input.headers, body: input.rawBody, secret });
  if (push.branch !== source.branch) return { syncing: false };
  const sync = syncAsLinker(deps, source);
  (input.background ?? ((p) => void p.catch(() => undefined)))(sync);
  return { syncing: true };
};
