/**
 * `switchyard validate <file>...`: every problem of every file at once, one line each
 * (`file:line:col: CODE message`), or `--json` for machines. Exits 0 when every file is
 * valid, else with the taxonomy exit code of the first error (USER 1, WORKFLOW 2, ...).
 */
import path from "node:path";
import { folderTemplates } from "./folder-templates";
import { AppError } from "@switchyard/core/errors";
import {
  bundleReader,
  validateWorkflow,
  type ConnectorCatalog,
  type ParseResult,
} from "@switchyard/core/workflow";
import { fileCatalog, folderResolver } from "./local-ports";
import { localSkills } from "./local-skills";
import { openWorkflowFolder, type WorkflowFolder } from "./workflow-folder";

export type Io = { out: (text: string) => void; err: (text: string) => void };

const line = (file: string, e: AppError, severity: "error" | "warning") => {
  const pos = e.location?.line ? `:${e.location.line}:${e.location.column ?? 1}` : "";
  return `${file}${pos}: ${severity === "warning" ? "warning " : ""}${e.code} ${e.message}`;
};

export const runValidate = async (
  argv: string[],
  io: Io,
  env: NodeJS.ProcessEnv = {},
): Promise<number> => {
  const files: string[] = [];
  let json = false;
  let catalog: ConnectorCatalog | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--json") json = true;
    else if (arg === "--catalog") catalog = fileCatalog(argv[++i] ?? "");
    else if (arg.startsWith("-"))
      throw new AppError("USER.INPUT.VALIDATION_FAILED", `unknown option ${arg}`);
    else files.push(arg);
  }
  if (files.length === 0)
    throw new AppError(
      "USER.INPUT.VALIDATION_FAILED",
      "usage: switchyard validate [--json] [--catalog file.json] <file>...",
    );
  let exit = 0;
  const report: unknown[] = [];
  for (const file of files) {
    let folder: WorkflowFolder | undefined;
    let source: string | undefined;
    let unreadable: AppError | undefined;
    try {
      folder = openWorkflowFolder(path.dirname(path.resolve(file)));
      source = folder.read(path.basename(file));
    } catch (error) {
      if (error instanceof AppError) unreadable = error;
    }
    if (!folder || source === undefined) {
      folder?.close();
      const e =
        unreadable ??
        new AppError("USER.INPUT.MISSING_FILE", `workflow file ${file} not found`, {
          location: { file },
        });
      if (json) report.push({ file, valid: false, errors: [e.toJSON()], warnings: [] });
      else io.err(`${file}: ${e.code} ${e.message}\n`);
      exit ||= e.exitCode;
      continue;
    }
    let result: ParseResult;
    // Skills are looked for where `switchyard run` looks (local-skills.ts).
    const skills = localSkills(folder, env, process.cwd());
    try {
      result = await validateWorkflow(source, file, {
        files: bundleReader(folder.read, path.basename(file)),
        skills,
        resolver: folderResolver(folder),
        catalog,
        templates: folderTemplates(folder),
      });
    } finally {
      skills.close();
      folder.close();
    }
    exit ||= result.errors[0]?.exitCode ?? 0;
    if (json) {
      report.push({
        file,
        valid: result.errors.length === 0,
        errors: result.errors.map((e) => e.toJSON()),
        warnings: result.warnings.map((e) => e.toJSON()),
      });
      continue;
    }
    for (const e of result.errors) io.out(`${line(file, e, "error")}\n`);
    for (const w of result.warnings) io.out(`${line(file, w, "warning")}\n`);
    if (result.errors.length === 0)
      io.out(
        `${file}: valid${result.warnings.length ? ` (${result.warnings.length} warnings)` : ""}\n`,
      );
  }
  if (json) io.out(`${JSON.stringify(report, null, 2)}\n`);
  return exit;
};
