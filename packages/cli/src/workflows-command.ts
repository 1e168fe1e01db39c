/**
 * `switchyard workflows list|push|pull` against a server: the team's workflows, a local
 * workflow file saved as a new version (refused whole, with each problem's file, line and
 * column, when it does not validate), and a workflow's current files written to a folder.
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { AppError } from "@switchyard/core/errors";
import { connect, call, type Connected } from "./server-access";
import { parseServerArgs, subcommands } from "./server-args";
import type { Io } from "./validate-command";

export const WORKFLOWS_USAGE = `usage: switchyard workflows <list|push|pull> [options]
  list [--json]                  the team's workflows: name, lane, current version, id
  push <file.yaml> [--folder] [--json]
                                 save the file as the workflow's new version (its name is in the
                                 file); --folder sends the other files of its folder with it (its
                                 scripts, prompt files, skills), as the workflow's bundle
  pull <name> [--dir <folder>] [--json]
                                 write the workflow's current files into <folder> (. by default)`;

/** The team's workflow named `name`, or NOT_FOUND saying how to see the names. */
export const workflowNamed = async ({ access, client }: Connected, name: string) => {
  const { workflows } = await call(access, client.GET("/workflows"));
  const found = workflows.find((w) => w.name === name);
  if (!found)
    throw new AppError(
      "NOT_FOUND",
      `no workflow named "${name}" in the token's team: \`switchyard workflows list\` shows their names`,
      { location: { path: "workflow" } },
    );
  return found;
};

const list = async (argv: string[], io: Io, env: NodeJS.ProcessEnv) => {
  const { flags } = parseServerArgs(argv, { json: "boolean" }, WORKFLOWS_USAGE);
  const { access, client } = await connect(env);
  const { workflows } = await call(access, client.GET("/workflows"));
  if (flags.json) {
    io.out(`${JSON.stringify(workflows)}\n`);
    return 0;
  }
  if (workflows.length === 0)
    io.out("No workflows yet: `switchyard workflows push <file>` adds one.\n");
  const width = Math.max(4, ...workflows.map((w) => w.name.length));
  for (const w of workflows)
    io.out(`${w.name.padEnd(width)}  ${w.lane.padEnd(10)}  v${w.version ?? "-"}  ${w.id}\n`);
  return 0;
};

const push = async (argv: string[], io: Io, env: NodeJS.ProcessEnv) => {
  const { flags, positionals } = parseServerArgs(
    argv,
    { json: "boolean", folder: "boolean" },
    WORKFLOWS_USAGE,
  );
  const [file] = positionals;
  if (!file || positionals.length > 1)
    throw new AppError("USER.INPUT.VALIDATION_FAILED", WORKFLOWS_USAGE);
  const text = await readFile(file, "utf8").catch(() => {
    throw new AppError("USER.INPUT.MISSING_FILE", `workflow file ${file} not found`, {
      location: { file },
    });
  });
  const entry = path.basename(file);
  const files = flags.folder ? await folderFiles(path.dirname(file)) : {};
  files[entry] = text;
  const { access, client } = await connect(env);
  try {
    const saved = await call(access, client.POST("/workflows", { body: { entry, files } }));
    if (flags.json) io.out(`${JSON.stringify(saved)}\n`);
    else {
      io.out(`Saved ${file} as version ${saved.version} (workflow ${saved.workflowId}).\n`);
      for (const w of saved.warnings)
        io.err(`warning: ${where(file, w)}[${w.code}] ${w.message}\n`);
    }
    return 0;
  } catch (error) {
    // A workflow that does not validate: every problem at its place in the local file.
    const diagnostics = (error as AppError).details as { diagnostics?: Diagnostic[] } | undefined;
    if (error instanceof AppError && diagnostics?.diagnostics?.length) {
      if (flags.json) io.out(`${JSON.stringify({ error: error.toJSON() })}\n`);
      else
        for (const d of diagnostics.diagnostics)
          io.err(`${where(file, d)}[${d.code}] ${d.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
};

/** Folders a bundle never holds: installed packages (and, below, anything hidden). */
const SKIPPED = new Set(["node_modules"]);

/**
 * Hidden files and folders (`.git`, `.env`, `.npmrc`, `.ssh`, …) stay behind, but for AWF's
 * own `.awf/` (templates): they hold a person's secrets far more often than anything a
 * workflow reads, and a bundle is readable by the whole team.
 */
const skipped = (part: string) => (part.startsWith(".") && part !== ".awf") || SKIPPED.has(part);

/**
 * The regular files below `dir` by their path in it (symbolic links are not followed); the
 * server checks the bundle's limits and says which one a folder passes.
 */
const folderFiles = async (dir: string) => {
  const files: Record<string, string> = {};
  for (const found of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(found.parentPath, found.name);
    const relative = path.relative(dir, full);
    if (!found.isFile() || relative.split(path.sep).some(skipped)) continue;
    files[relative.split(path.sep).join("/")] = await readFile(full, "utf8");
  }
  return files;
};

type Diagnostic = { code: string; message: string; file?: string; line?: number; column?: number };

/** `file.yaml:3:7: ` for a problem of the pushed file (the server names it by its entry). */
const where = (file: string, d: Omit<Diagnostic, "code" | "message">) =>
  `${d.file && d.file !== path.basename(file) ? d.file : file}${d.line ? `:${d.line}${d.column ? `:${d.column}` : ""}` : ""}: `;

const pull = async (argv: string[], io: Io, env: NodeJS.ProcessEnv) => {
  const { flags, positionals } = parseServerArgs(
    argv,
    { json: "boolean", dir: "string" },
    WORKFLOWS_USAGE,
  );
  const [name] = positionals;
  if (!name || positionals.length > 1)
    throw new AppError("USER.INPUT.VALIDATION_FAILED", WORKFLOWS_USAGE);
  const connected = await connect(env);
  const { id } = await workflowNamed(connected, name);
  const workflow = await call(
    connected.access,
    connected.client.GET("/workflows/{id}", { params: { path: { id } } }),
  );
  const dir = path.resolve(flags.dir ?? ".");
  const written: string[] = [];
  for (const [relative, content] of Object.entries(workflow.files)) {
    const target = path.resolve(dir, relative);
    if (!target.startsWith(`${dir}${path.sep}`))
      throw new AppError("BAD_REQUEST", `the server sent a file outside the folder: ${relative}`);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, content);
    written.push(path.relative(process.cwd(), target) || target);
  }
  if (flags.json)
    io.out(`${JSON.stringify({ id, name, version: workflow.version, files: written })}\n`);
  else io.out(`Wrote ${name} version ${workflow.version}: ${written.join(", ")}\n`);
  return 0;
};

export const runWorkflows = subcommands({ list, push, pull }, WORKFLOWS_USAGE);
