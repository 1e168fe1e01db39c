/**
 * The team's workflow packs for the API. Installing reads the archive and its manifest,
 * validates every pack workflow in the team's context as saving a workflow does (with its
 * lane's save rule), and only then stores the pack version and its workflows together.
 */
import { createHash } from "node:crypto";
import { AppError } from "@switchyard/core/errors";
import { readPack, type PackManifest } from "@switchyard/core/packs";
import { maySave, type Role } from "@switchyard/core/policy";
import {
  getWorkflowPack,
  installWorkflowPackVersion,
  laneRules,
  listWorkflowPacks,
  removeWorkflowPack,
  runReachRefusal,
  type Db,
} from "@switchyard/db";
import { toDiagnostic, validateBundle, type Diagnostic } from "../workflows/validate-bundle";

type Caller = { teamId: string; userId: string; role: Role };

/** The pack's workflow file as its author knows it, for errors. */
const packFile = (name: string) => `workflows/${name}.yaml`;

/**
 * Refuses changing a pack whose live workflows sit in a lane the caller may not save in: an
 * update replaces or archives each of them and a removal archives them, as saving or deleting
 * that workflow would, so a member cannot pull an admin's pack workflow out of its lane.
 */
const laneGuard =
  (lanes: Awaited<ReturnType<typeof laneRules>>, role: Role) =>
  (live: { name: string; lane: string }[]) => {
    for (const wf of live) {
      const refused = maySave(lanes, role, wf.lane);
      if (refused)
        throw new AppError(
          refused.code,
          `workflow "${wf.name}" is in lane "${wf.lane}": ${refused.message}`,
        );
    }
  };

const manifestOf = (value: unknown) => (value ?? {}) as Partial<PackManifest>;

type PackRow = {
  name: string;
  description: string;
  source: string;
  currentVersion: { version: string; number: number; createdAt: Date } | null;
  workflows: { id: string; name: string }[];
};

const summaryOf = (p: PackRow) => ({
  name: p.name,
  description: p.description,
  source: p.source,
  version: p.currentVersion?.version ?? null,
  number: p.currentVersion?.number ?? null,
  installedAt: p.currentVersion?.createdAt ?? null,
  workflows: p.workflows.map((w) => ({ id: w.id, name: w.name })),
});

export const listPacks = async (db: Db, caller: Caller) =>
  (await listWorkflowPacks(db, caller.teamId)).map(summaryOf);

export const readPackDetail = async (db: Db, caller: Caller, name: string) => {
  const p = await getWorkflowPack(db, caller.teamId, name);
  if (!p) throw new AppError("NOT_FOUND", `pack "${name}" is not installed`);
  const m = manifestOf(p.currentVersion?.manifest);
  return {
    ...summaryOf(p),
    readme: p.currentVersion?.readme ?? "",
    author: m.author ?? "",
    license: m.license ?? "",
    awfVersion: m.awfVersion ?? "",
    plugins: m.plugins ?? {},
    versions: p.versions.map((v) => ({
      number: v.number,
      version: v.version,
      createdAt: v.createdAt,
    })),
  };
};

/** Installs (or updates) the pack in `archive`; `source` is what the list shows it came from. */
export const installPackArchive = async (
  db: Db,
  caller: Caller,
  archive: Buffer,
  source: string,
) => {
  const pack = readPack(archive);
  const lanes = await laneRules(db, caller.teamId);
  const problems: Diagnostic[] = [];
  const warnings: Diagnostic[] = pack.warnings.map(toDiagnostic);
  const workflows = [];
  const installing = {
    name: pack.manifest.name,
    workflows: new Map(pack.workflows.map((wf) => [wf.name, wf])),
  };
  for (const wf of pack.workflows) {
    const inPack = (d: Diagnostic): Diagnostic =>
      d.file === wf.entryPath ? { ...d, file: packFile(wf.name) } : d;
    const result = await validateBundle(
      db,
      caller.teamId,
      { entry: wf.entryPath, files: wf.files },
      installing,
    );
    warnings.push(...result.warnings.map(toDiagnostic).map(inPack));
    if (!result.workflow) {
      problems.push(...result.errors.map(toDiagnostic).map(inPack));
      continue;
    }
    const lane = result.workflow.lane ?? "default";
    const refused = !lanes.has(lane)
      ? new AppError("USER.INPUT.VALIDATION_FAILED", `lane "${lane}" does not exist in this team`)
      : (maySave(lanes, caller.role, lane) ??
        (await runReachRefusal(db, caller.teamId, {
          root: { workflow: result.workflow, lane, pack: pack.manifest.name },
          lanes,
          role: caller.role,
        })));
    if (refused) {
      problems.push({
        code: refused.code,
        message: `${packFile(wf.name)}: ${refused.message}`,
        file: packFile(wf.name),
        path: "lane",
      });
      continue;
    }
    workflows.push({
      name: wf.name,
      entryPath: wf.entryPath,
      files: result.files,
      description: result.workflow.description ?? "",
      lane,
    });
  }
  if (problems.length > 0)
    throw new AppError(
      "WORKFLOW.VALIDATION_FAILED",
      `the pack's workflows have ${problems.length} error${problems.length === 1 ? "" : "s"}: ${problems[0]!.file ?? ""}: ${problems[0]!.message}`,
      { details: { diagnostics: problems } },
    );
  const installed = await installWorkflowPackVersion(db, {
    teamId: caller.teamId,
    actorUserId: caller.userId,
    name: pack.manifest.name,
    version: pack.manifest.version,
    description: pack.manifest.description,
    source,
    archiveHash: createHash("sha256").update(archive).digest("hex"),
    manifest: pack.manifest,
    readme: pack.readme,
    workflows,
    mayChange: laneGuard(lanes, caller.role),
  });
  return {
    name: pack.manifest.name,
    version: pack.manifest.version,
    number: installed.version.number,
    workflows: installed.workflows.map((w) => ({
      id: w.workflowId,
      name: w.name,
      version: w.version,
    })),
    warnings,
  };
};

export const removePack = async (db: Db, caller: Caller, name: string) =>
  removeWorkflowPack(db, {
    teamId: caller.teamId,
    name,
    actorUserId: caller.userId,
    mayChange: laneGuard(await laneRules(db, caller.teamId), caller.role),
  });
