/**
 * The team's skills library for the API: a SKILL.md is checked against the agentskills.io
 * format (its front matter's name must be the one it is saved under) before a version is
 * stored; its description is the front matter's.
 */
import { AppError } from "@switchyard/core/errors";
import { checkSkillFile } from "@switchyard/core/workflow";
import { deleteSkill, getSkill, listSkills, saveSkillVersion, type Db } from "@switchyard/db";
import { toDiagnostic } from "../workflows/validate-bundle";

type Caller = { teamId: string; userId: string };

/** The problems (errors refuse a save, warnings do not) of a SKILL.md saved under `name`. */
export const checkSkill = (name: string, content: string) => {
  const check = checkSkillFile(name, content);
  return {
    errors: check.errors.map(toDiagnostic),
    warnings: check.warnings.map(toDiagnostic),
    description: check.description,
  };
};

export const listTeamSkills = async (db: Db, caller: Caller) =>
  (await listSkills(db, caller.teamId)).map((s) => ({
    name: s.name,
    description: s.description,
    version: s.currentVersion?.number ?? null,
    updatedAt: s.updatedAt,
  }));

export const readSkill = async (db: Db, caller: Caller, name: string, version?: number) => {
  const skill = await getSkill(db, caller.teamId, name, version);
  if (!skill)
    throw new AppError(
      "NOT_FOUND",
      version === undefined
        ? `skill "${name}" not found`
        : `skill "${name}" has no version ${version}`,
    );
  return {
    name: skill.name,
    description: skill.description,
    version: skill.currentVersion?.number ?? null,
    updatedAt: skill.updatedAt,
    content: skill.shown.content,
    shownVersion: skill.shown.number,
    versions: skill.versions.map((v) => ({ number: v.number, createdAt: v.createdAt })),
  };
};

export const saveSkill = async (
  db: Db,
  caller: Caller,
  input: { name: string; content: string },
) => {
  const { errors, warnings, description } = checkSkill(input.name, input.content);
  if (errors.length > 0)
    throw new AppError(
      "WORKFLOW.VALIDATION_FAILED",
      `the skill has ${errors.length} error${errors.length === 1 ? "" : "s"}: ${errors[0]!.message}`,
      { details: { diagnostics: errors } },
    );
  const { version, created } = await saveSkillVersion(db, {
    teamId: caller.teamId,
    name: input.name,
    description,
    content: input.content,
    actorUserId: caller.userId,
  });
  return { name: input.name, version: version.number, created, warnings };
};

export const removeSkill = async (db: Db, caller: Caller, name: string) => {
  await deleteSkill(db, { teamId: caller.teamId, name, actorUserId: caller.userId });
  return { name };
};
