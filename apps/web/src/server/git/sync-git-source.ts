/**
 * One sync of a linked git repository: the folder is read at the branch's head, and each
 * workflow file in it is validated and saved on its own, as saving a workflow validates and
 * saves it (its lane's save rule for whom the sync acts as, every call it makes). A file that
 * does not validate is reported with its problems (file, line, column) and leaves the
 * workflow's current version as it was; a file that does is one transaction (its blobs, the
 * new version with the commit id, the workflow's current version), so nothing is half
 * written. Workflows whose file left the folder are archived. Only one sync of a source runs
 * at a time.
 */
import type { Keyring } from "@switchyard/core/crypto";
import { openSecret } from "@switchyard/core/crypto";
import { AppError } from "@switchyard/core/errors";
import { fetchGitFolder, gitWorkflowBundles, type GitWorkflowBundle } from "@switchyard/core/git";
import { maySave, type LaneTable, type Role } from "@switchyard/core/policy";
import {
  archiveRemovedGitWorkflows,
  claimGitSync,
  findWorkflowByName,
  finishGitSync,
  getGitSource,
  gitSourceHolder,
  gitSourceToken,
  hasWorkflowPack,
  laneRules,
  runReachRefusal,
  saveWorkflowVersion,
  type Db,
} from "@switchyard/db";
import type { WebEgress } from "../egress";
import { toDiagnostic, validateBundle, type Diagnostic } from "../workflows/validate-bundle";

export type GitSyncDeps = { db: Db; keyring: () => Keyring; egress: WebEgress };

/** What became of one workflow file. */
export type GitFileResult = {
  path: string;
  workflow: string | null;
  /** saved: a new version; unchanged: the same bundle as the current version; invalid: kept the current version; removed: archived */
  status: "saved" | "unchanged" | "invalid" | "removed";
  version: number | null;
  diagnostics: Diagnostic[];
};

export type GitSyncReport = {
  status: "ok" | "invalid" | "failed";
  commit: string | null;
  error: { code: string; message: string } | null;
  files: GitFileResult[];
};

type Actor = { userId: string | null; role: Role };

const inRepo = (folder: string, path: string) => (folder === "" ? path : `${folder}/${path}`);

const refusal = (path: string, e: AppError, at: string): GitFileResult => ({
  path,
  workflow: null,
  status: "invalid",
  version: null,
  diagnostics: [{ code: e.code, message: e.message, file: path, path: at }],
});

/** Validates and saves one workflow file; never throws for what is wrong with the file. */
const syncFile = async (
  deps: GitSyncDeps,
  source: { id: string; teamId: string; folder: string },
  bundle: GitWorkflowBundle,
  commit: string,
  actor: Actor,
  /** The team's lanes, read once per sync. */
  lanes: LaneTable,
): Promise<GitFileResult> => {
  const { db } = deps;
  const path = inRepo(source.folder, bundle.path);
  const named = (d: Diagnostic): Diagnostic => ({
    ...d,
    file: d.file === bundle.entry ? path : d.file,
  });
  let result;
  try {
    result = await validateBundle(db, source.teamId, { entry: bundle.entry, files: bundle.files });
  } catch (error) {
    if (error instanceof AppError) return refusal(path, error, "");
    throw error;
  }
  if (!result.workflow)
    return {
      path,
      workflow: null,
      status: "invalid",
      version: null,
      diagnostics: result.errors.map(toDiagnostic).map(named),
    };
  const wf = result.workflow;
  const lane = wf.lane ?? "default";
  const existing = await findWorkflowByName(db, source.teamId, wf.name);
  const taken =
    existing && existing.archivedAt === null && existing.gitSourceId !== source.id
      ? new AppError(
          "USER.GIT.NAME_TAKEN",
          `the team has a workflow "${wf.name}" that is not from this repository (${existing.pack ? `pack "${existing.pack}"` : existing.gitSourceId ? "another repository" : "saved in the editor"}): rename one of them, or archive the team's`,
        )
      : existing?.gitSourceId === source.id &&
          existing.archivedAt === null &&
          existing.gitPath !== path
        ? new AppError(
            "USER.GIT.NAME_TAKEN",
            `"${wf.name}" is the name of ${existing.gitPath ?? "another file"} in this repository too`,
          )
        : (await hasWorkflowPack(db, source.teamId, wf.name.split("/")[0]!))
          ? new AppError("USER.GIT.NAME_TAKEN", `"${wf.name}" is a name of a workflow pack`)
          : undefined;
  if (taken) return { ...refusal(path, taken, "name"), workflow: wf.name };
  const denied = !lanes.has(lane)
    ? new AppError("USER.INPUT.VALIDATION_FAILED", `lane "${lane}" does not exist in this team`)
    : (maySave(lanes, actor.role, lane) ??
      (existing && existing.lane !== lane
        ? maySave(lanes, actor.role, existing.lane)
        : undefined) ??
      (await runReachRefusal(db, source.teamId, {
        root: { workflow: wf, lane },
        lanes,
        role: actor.role,
      })));
  if (denied) return { ...refusal(path, denied, "lane"), workflow: wf.name };
  const before = existing?.currentVersionId ?? null;
  const version = await saveWorkflowVersion(db, {
    teamId: source.teamId,
    name: wf.name,
    description: wf.description,
    lane,
    entryPath: bundle.entry,
    files: result.files,
    createdById: actor.userId ?? undefined,
    git: { sourceId: source.id, path, commit },
  });
  return {
    path,
    workflow: wf.name,
    status: version.id === before ? "unchanged" : "saved",
    version: version.number,
    diagnostics: result.warnings.map(toDiagnostic).map(named),
  };
};

const failedReport = (error: unknown): GitSyncReport => {
  const e =
    error instanceof AppError
      ? error
      : new AppError("USER.GIT.FETCH_FAILED", "the repository could not be read");
  return { status: "failed", commit: null, error: { code: e.code, message: e.message }, files: [] };
};

/**
 * Syncs the team's source as `actor`; USER.GIT.SYNC_RUNNING when another sync holds it.
 * What the fetch could not do is the report's error, not a throw: it is kept on the source.
 */
export const syncGitSource = async (
  deps: GitSyncDeps,
  input: { teamId: string; sourceId: string; actor: Actor },
): Promise<GitSyncReport> => {
  const { db } = deps;
  const source = await getGitSource(db, input.teamId, input.sourceId);
  if (!source) throw new AppError("NOT_FOUND", "no such git repository in this team");
  if (!(await claimGitSync(db, input.teamId, source.id)))
    throw new AppError(
      "USER.GIT.SYNC_RUNNING",
      "this repository is being synced already; look at its last sync in a moment",
    );
  let report: GitSyncReport;
  try {
    report = await readAndSave(deps, { ...source, teamId: input.teamId }, input.actor);
  } catch (error) {
    report = failedReport(error);
  }
  await finishGitSync(db, {
    teamId: input.teamId,
    id: source.id,
    actorUserId: input.actor.userId,
    outcome: {
      status: report.status,
      commit: report.commit,
      error: report.error && `${report.error.code}: ${report.error.message}`,
      files: report.files,
    },
  });
  return report;
};

const readAndSave = async (
  deps: GitSyncDeps,
  source: {
    id: string;
    teamId: string;
    url: string;
    branch: string;
    folder: string;
    username: string;
  },
  actor: Actor,
): Promise<GitSyncReport> => {
  const sealed = await gitSourceToken(deps.db, source.teamId, source.id);
  const token =
    sealed &&
    openSecret(
      deps.keyring(),
      {
        teamId: source.teamId,
        credentialId: sealed.credentialId,
        name: gitSourceHolder(source.id, "token"),
      },
      sealed.envelope,
    );
  const folder = await fetchGitFolder({
    url: source.url,
    branch: source.branch,
    folder: source.folder,
    token,
    username: source.username,
    allow: deps.egress.allow,
    localRoots: deps.egress.gitLocalRoots ?? [],
  });
  const files: GitFileResult[] = [];
  const lanes = await laneRules(deps.db, source.teamId);
  for (const bundle of gitWorkflowBundles(folder.files))
    files.push(await syncFile(deps, source, bundle, folder.commit, actor, lanes));
  // A file that no longer reads keeps its workflow: only a file that left the folder archives one.
  const removed = await archiveRemovedGitWorkflows(deps.db, {
    teamId: source.teamId,
    sourceId: source.id,
    keepPaths: files.map((f) => f.path),
    actorUserId: actor.userId,
  });
  for (const wf of removed)
    files.push({
      path: wf.gitPath ?? "",
      workflow: wf.name,
      status: "removed",
      version: null,
      diagnostics: [],
    });
  return {
    status: files.some((f) => f.status === "invalid") ? "invalid" : "ok",
    commit: folder.commit,
    error: null,
    files,
  };
};
