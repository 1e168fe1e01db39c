/**
 * Saves a new version of a workflow from its bundle. Nothing is stored unless the whole
 * bundle validates; the lane policy must allow the caller to save in the workflow's lane
 * and every call_workflow it makes (see @switchyard/core/policy); the name in the YAML is
 * the workflow's name within the team.
 */
import { AppError } from "@switchyard/core/errors";
import { maySave } from "@switchyard/core/policy";
import {
  findWorkflowByName,
  hasWorkflowPack,
  laneRules,
  runReachRefusal,
  saveWorkflowVersion,
  type Db,
  type Role,
} from "@switchyard/db";
import { toDiagnostic, validateBundle, type Diagnostic } from "./validate-bundle";

const invalid = (diagnostics: Diagnostic[]) =>
  new AppError(
    "WORKFLOW.VALIDATION_FAILED",
    `the workflow has ${diagnostics.length} error${diagnostics.length === 1 ? "" : "s"}: ${diagnostics[0]?.message ?? ""}`,
    { details: { diagnostics } },
  );

/**
 * A pack's workflows (`<pack>/<workflow>`) change only when the pack is installed again, and
 * the team's own workflows take no name of an installed pack or under it.
 */
const refusePackNames = async (
  db: Db,
  teamId: string,
  name: string,
  fromPack: string | null,
  entry: string,
) => {
  const location = { file: entry, path: "name" };
  if (fromPack !== null)
    throw new AppError(
      "USER.PACK.NAME_COLLISION",
      `"${name}" comes from workflow pack "${fromPack}" and is read-only: install the pack again to change it`,
      { location },
    );
  const packName = name.split("/")[0]!;
  if (await hasWorkflowPack(db, teamId, packName))
    throw new AppError(
      "USER.PACK.NAME_COLLISION",
      `"${name}" is a name of workflow pack "${packName}": give the workflow another name`,
      { location },
    );
};

export const saveWorkflow = async (
  db: Db,
  input: {
    teamId: string;
    userId: string;
    role: Role;
    entry: string;
    files: Record<string, string>;
  },
) => {
  // Validating refuses a bundle over the size limits first (bundle-limits.ts).
  const result = await validateBundle(db, input.teamId, input);
  if (!result.workflow) throw invalid(result.errors.map(toDiagnostic));
  const wf = result.workflow;
  const laneName = wf.lane ?? "default";
  const lanes = await laneRules(db, input.teamId);
  if (!lanes.has(laneName))
    throw new AppError(
      "USER.INPUT.VALIDATION_FAILED",
      `lane "${laneName}" does not exist in this team`,
      { location: { file: input.entry, path: "lane" } },
    );
  const denied = maySave(lanes, input.role, laneName);
  if (denied) throw denied;
  // Saving a new version of an existing workflow also needs the right to save in the lane
  // it is in now, or a member could move an operator workflow out of its lane by saving it.
  const existing = await findWorkflowByName(db, input.teamId, wf.name);
  await refusePackNames(db, input.teamId, wf.name, existing?.pack ?? null, input.entry);
  if (existing?.gitSourceId)
    throw new AppError(
      "USER.GIT.READ_ONLY",
      `"${wf.name}" is synced from git (${existing.gitPath ?? "its repository"}) and is read-only here: change it in the repository and sync`,
      { location: { file: input.entry, path: "name" } },
    );
  if (existing && existing.lane !== laneName && maySave(lanes, input.role, existing.lane)) {
    throw new AppError(
      "FORBIDDEN",
      `"${wf.name}" is in lane "${existing.lane}", where your role (${input.role}) may not save workflows`,
    );
  }
  // Every workflow it calls, as the team has them now: the calls must be allowed and the
  // one saving must be allowed to start what they reach.
  const refused = await runReachRefusal(db, input.teamId, {
    root: { workflow: wf, lane: laneName },
    lanes,
    role: input.role,
  });
  if (refused) throw refused;
  const version = await saveWorkflowVersion(db, {
    teamId: input.teamId,
    name: wf.name,
    description: wf.description,
    lane: laneName,
    entryPath: input.entry,
    files: result.files,
    createdById: input.userId,
  });
  return { version, warnings: result.warnings.map(toDiagnostic) };
};
