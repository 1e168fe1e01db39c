/**
 * Reading a team's workflows beyond the list: the current version for the editor, every
 * saved version with who saved it, one version's files, the diff between two versions,
 * and archiving. Shared by the tRPC procedures and the REST routes; viewers may read,
 * archiving needs the right to save in the workflow's lane.
 */
import { createTwoFilesPatch, structuredPatch } from "diff";
import { AppError } from "@switchyard/core/errors";
import { maySave, roleAtLeast, type Role } from "@switchyard/core/policy";
import { bundleTemplates, parseWorkflow, type InputDefinition } from "@switchyard/core/workflow";
import { workflowGraph, type WorkflowGraph } from "@switchyard/core/workflow/graph";
import {
  archiveWorkflow,
  findWorkflowVersion,
  getGitSource,
  getWorkflow,
  laneRules,
  listWorkflowVersions,
  loadBundle,
  pinnedStepTemplates,
  type Db,
} from "@switchyard/db";

import { pinnedSkills } from "./pin-skills";

type Caller = { teamId: string; userId: string; role: Role };
type DiffLine = {
  kind: "add" | "del" | "context" | "hunk";
  text: string;
  oldLine?: number;
  newLine?: number;
};

/** The graph and input declaration of a bundle's workflow, when it parses. */
export const shapeOf = (
  entry: string,
  path: string,
  files: Readonly<Record<string, string>>,
): { graph: WorkflowGraph | null; inputs: InputDefinition[] } => {
  const { workflow } = parseWorkflow(entry, path, undefined, {
    templates: bundleTemplates(files),
  });
  return workflow
    ? { graph: workflowGraph(workflow), inputs: workflow.inputs }
    : { graph: null, inputs: [] };
};

const liveWorkflow = async (db: Db, caller: Caller, id: string) => {
  const workflow = await getWorkflow(db, caller.teamId, id);
  if (!workflow) throw new AppError("NOT_FOUND", "workflow not found");
  return workflow;
};

/** Where a workflow synced from git comes from, for the editor to say where to change it. */
const gitOrigin = async (
  db: Db,
  teamId: string,
  workflow: { gitSourceId: string | null; gitPath: string | null },
  commitId: string | null,
) => {
  const source = workflow.gitSourceId
    ? await getGitSource(db, teamId, workflow.gitSourceId)
    : undefined;
  return source
    ? {
        sourceId: source.id,
        url: source.url,
        branch: source.branch,
        path: workflow.gitPath ?? "",
        commitId,
      }
    : null;
};

/** The current version's bundle with its graph and inputs, for the workflow page. */
export const readWorkflow = async (db: Db, caller: Caller, id: string) => {
  const workflow = await liveWorkflow(db, caller, id);
  if (!workflow.currentVersion || workflow.archivedAt)
    throw new AppError("NOT_FOUND", "workflow not found");
  const bundle = await loadBundle(db, caller.teamId, workflow.currentVersion.id);
  if (!bundle) throw new AppError("NOT_FOUND", "workflow version not found");
  return {
    id: workflow.id,
    name: workflow.name,
    description: workflow.description,
    lane: workflow.lane,
    pack: workflow.pack,
    git: await gitOrigin(db, caller.teamId, workflow, bundle.version.commitId),
    version: bundle.version.number,
    versionId: bundle.version.id,
    bundleHash: bundle.version.bundleHash,
    entry: bundle.version.entryPath,
    files: bundle.files,
    ...shapeOf(bundle.entry, bundle.version.entryPath, bundle.files),
    templates: await pinnedStepTemplates(db, caller.teamId, bundle.files),
    skills: await pinnedSkills(db, caller.teamId, bundle.version.entryPath, bundle.files),
  };
};

export const listVersions = async (db: Db, caller: Caller, id: string) => {
  const workflow = await liveWorkflow(db, caller, id);
  const versions = await listWorkflowVersions(db, caller.teamId, workflow.id);
  return {
    versions: versions.map((v) => ({
      id: v.id,
      number: v.number,
      bundleHash: v.bundleHash,
      createdAt: v.createdAt,
      createdBy: v.createdBy,
      commitId: v.commitId,
      current: v.id === workflow.currentVersionId,
    })),
  };
};

const bundleOf = async (db: Db, caller: Caller, id: string, number: number) => {
  const workflow = await liveWorkflow(db, caller, id);
  const version = await findWorkflowVersion(db, caller.teamId, workflow.id, number);
  const bundle = version && (await loadBundle(db, caller.teamId, version.id));
  if (!bundle)
    throw new AppError("NOT_FOUND", `version ${number} of this workflow not found`, {
      location: { path: "number" },
    });
  return { workflow, bundle };
};

export const readVersion = async (
  db: Db,
  caller: Caller,
  input: { id: string; number: number },
) => {
  const { workflow, bundle } = await bundleOf(db, caller, input.id, input.number);
  const v = bundle.version;
  const saver =
    (await listWorkflowVersions(db, caller.teamId, workflow.id)).find((x) => x.id === v.id)
      ?.createdBy ?? null;
  return {
    id: v.id,
    workflowId: workflow.id,
    number: v.number,
    bundleHash: v.bundleHash,
    createdAt: v.createdAt,
    createdBy: saver,
    commitId: v.commitId,
    current: v.id === workflow.currentVersionId,
    entry: v.entryPath,
    files: bundle.files,
    ...shapeOf(bundle.entry, v.entryPath, bundle.files),
    templates: await pinnedStepTemplates(db, caller.teamId, bundle.files),
    skills: await pinnedSkills(db, caller.teamId, v.entryPath, bundle.files),
  };
};

const linesOf = (oldText: string, newText: string): DiffLine[] => {
  const patch = structuredPatch("a", "b", oldText, newText, "", "", { context: 3 });
  const out: DiffLine[] = [];
  for (const h of patch.hunks) {
    out.push({
      kind: "hunk",
      text: `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`,
    });
    let o = h.oldStart;
    let n = h.newStart;
    for (const line of h.lines) {
      const mark = line[0];
      const text = line.slice(1);
      if (mark === "+") out.push({ kind: "add", text, newLine: n++ });
      else if (mark === "-") out.push({ kind: "del", text, oldLine: o++ });
      else if (mark === " ") out.push({ kind: "context", text, oldLine: o++, newLine: n++ });
    }
  }
  return out;
};

/** A unified diff of every file between two versions of the workflow. */
export const diffVersions = async (
  db: Db,
  caller: Caller,
  asked: { id: string; from?: number; to?: number },
) => {
  // Unset: the current version against the one before it.
  let to = asked.to;
  if (to === undefined) {
    const workflow = await liveWorkflow(db, caller, asked.id);
    to =
      (await listWorkflowVersions(db, caller.teamId, workflow.id)).find(
        (v) => v.id === workflow.currentVersionId,
      )?.number ?? 1;
  }
  const input = { id: asked.id, to, from: asked.from ?? Math.max(to - 1, 1) };
  const [a, b] = await Promise.all([
    bundleOf(db, caller, input.id, input.from),
    bundleOf(db, caller, input.id, input.to),
  ]);
  const paths = [
    ...new Set([...Object.keys(a.bundle.files), ...Object.keys(b.bundle.files)]),
  ].sort();
  return {
    from: input.from,
    to: input.to,
    files: paths.map((path) => {
      const before = a.bundle.files[path];
      const after = b.bundle.files[path];
      const change: "added" | "removed" | "changed" | "unchanged" =
        before === undefined
          ? "added"
          : after === undefined
            ? "removed"
            : before === after
              ? "unchanged"
              : "changed";
      const oldText = before ?? "";
      const newText = after ?? "";
      return {
        path,
        change: change,
        patch:
          change === "unchanged"
            ? ""
            : createTwoFilesPatch(
                `v${input.from}/${path}`,
                `v${input.to}/${path}`,
                oldText,
                newText,
              ),
        lines: change === "unchanged" ? [] : linesOf(oldText, newText),
      };
    }),
  };
};

/** Archives the workflow; who may save in its lane may archive it. */
export const archiveTeamWorkflow = async (db: Db, caller: Caller, id: string) => {
  if (!roleAtLeast(caller.role, "member"))
    throw new AppError("FORBIDDEN", "this needs the member role");
  const workflow = await liveWorkflow(db, caller, id);
  const denied = maySave(await laneRules(db, caller.teamId), caller.role, workflow.lane);
  if (denied) throw denied;
  const row = await archiveWorkflow(db, {
    teamId: caller.teamId,
    workflowId: workflow.id,
    actorUserId: caller.userId,
  });
  return { id: row.id, archivedAt: row.archivedAt ?? new Date() };
};
