/**
 * The team's step templates for the API: a template is checked as AWF reads it (and its
 * name must be the one it is saved under) before a version is stored.
 */
import { AppError } from "@switchyard/core/errors";
import { readTemplateFile, type TemplateParameter } from "@switchyard/core/workflow";
import {
  deleteStepTemplate,
  getStepTemplate,
  listStepTemplates,
  saveStepTemplateVersion,
  type Db,
} from "@switchyard/db";
import { toDiagnostic } from "../workflows/validate-bundle";

type Caller = { teamId: string; userId: string };

const fileOf = (name: string) => `.awf/templates/${name}.yaml`;

const parametersOf = (name: string, content: string | undefined): TemplateParameter[] =>
  content === undefined ? [] : (readTemplateFile(content, fileOf(name)).template?.parameters ?? []);

/** The problems of a template file saved under `name`. */
export const checkTemplate = (name: string, content: string) => {
  const { template, errors } = readTemplateFile(content, fileOf(name));
  const diagnostics = errors.map(toDiagnostic);
  if (template && template.name !== name)
    diagnostics.push({
      code: "WORKFLOW.VALIDATION.INVALID_VALUE",
      message: `name: the template is named "${template.name}" but saved as "${name}"`,
      file: fileOf(name),
      path: "name",
    });
  return diagnostics;
};

export const listTemplates = async (db: Db, caller: Caller) =>
  (await listStepTemplates(db, caller.teamId)).map((t) => ({
    name: t.name,
    description: t.description,
    version: t.currentVersion?.number ?? null,
    parameters: parametersOf(t.name, t.currentVersion?.content),
    updatedAt: t.updatedAt,
  }));

export const readTemplate = async (db: Db, caller: Caller, name: string) => {
  const t = await getStepTemplate(db, caller.teamId, name);
  if (!t?.currentVersion) throw new AppError("NOT_FOUND", `template "${name}" not found`);
  return {
    name: t.name,
    description: t.description,
    version: t.currentVersion.number,
    parameters: parametersOf(t.name, t.currentVersion.content),
    updatedAt: t.updatedAt,
    content: t.currentVersion.content,
    versions: t.versions.map((v) => ({ number: v.number, createdAt: v.createdAt })),
  };
};

export const saveTemplate = async (
  db: Db,
  caller: Caller,
  input: { name: string; content: string; description: string },
) => {
  const diagnostics = checkTemplate(input.name, input.content);
  if (diagnostics.length > 0)
    throw new AppError(
      "WORKFLOW.VALIDATION_FAILED",
      `the template has ${diagnostics.length} error${diagnostics.length === 1 ? "" : "s"}: ${diagnostics[0]!.message}`,
      { details: { diagnostics } },
    );
  const { version, created } = await saveStepTemplateVersion(db, {
    teamId: caller.teamId,
    name: input.name,
    description: input.description,
    content: input.content,
    actorUserId: caller.userId,
  });
  return { name: input.name, version: version.number, created };
};

export const removeTemplate = async (db: Db, caller: Caller, name: string) => {
  await deleteStepTemplate(db, { teamId: caller.teamId, name, actorUserId: caller.userId });
  return { name };
};
