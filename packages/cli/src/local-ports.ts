/**
 * The engine's ports for running on a person's machine: sub-workflows found by name next
 * to the file, in the workflow's folder (never outside it, never through a symlink),
 * variables from the user's environment, an optional connector catalog from a JSON file,
 * and shell steps and hooks run through the step sandbox over the user's workspace. The
 * bundle's other files are read through core's bundleReader over the same folder.
 */
import { folderTemplates } from "./folder-templates";
import { readFileSync } from "node:fs";
import path from "node:path";
import { AppError } from "@switchyard/core/errors";
import type { Sandbox } from "@switchyard/core/sandbox";
import type { WorkflowFolder } from "./workflow-folder";
import {
  bundleReader,
  parseWorkflow,
  type BundleFiles,
  type ConnectorCatalog,
  type ProcessRunner,
  type VariablesPort,
  type Workflow,
  type WorkflowResolver,
} from "@switchyard/core/workflow";

/**
 * A local run's bundle files: those `hold` names (what the run executes: the script_file and
 * prompt_file paths named literally) are read before the first step and served as they were
 * then; everything else, readFile above all, is read from the folder when used, since a step
 * may write it.
 */
export const runFiles = (folder: WorkflowFolder, entryPath: string) => {
  const held = bundleReader(folder.read, entryPath);
  const live = bundleReader(folder.readLive, entryPath);
  const holding = new Set<string>();
  const files: BundleFiles = { read: (p) => (holding.has(p) ? held : live).read(p) };
  const hold = (p: string) => {
    holding.add(p);
    held.read(p);
  };
  return { files, hold };
};

export type FolderResolver = WorkflowResolver & {
  /** Every sub-workflow resolved so far, for reading their files before the first step. */
  resolved(): Workflow[];
};

/**
 * `workflow: name` resolves to name.yaml, name.yml or the path itself, next to (or below)
 * the calling file, inside the workflow's folder.
 */
export const folderResolver = (folder: WorkflowFolder): FolderResolver => {
  const seen = new Map<string, Workflow>();
  return {
    resolve: async (name, from) => {
      const base = path.relative(folder.dir, path.dirname(path.resolve(from.file)));
      if (base === ".." || base.startsWith(`..${path.sep}`) || path.isAbsolute(base))
        return undefined;
      for (const candidate of [`${name}.yaml`, `${name}.yml`, name]) {
        const relative = path.posix.normalize(
          path.posix.join(base.split(path.sep).join("/"), candidate),
        );
        if (base !== "" && !relative.startsWith(`${base}/`)) continue;
        const source = folder.read(relative);
        if (source === undefined) continue;
        const file = path.join(folder.dir, relative);
        const parsed = parseWorkflow(source, file, undefined, {
          templates: folderTemplates(folder),
        });
        if (!parsed.workflow) {
          const first = parsed.errors[0];
          throw new AppError(
            first?.code ?? "WORKFLOW.VALIDATION.INVALID_VALUE",
            `sub-workflow ${file}: ${first?.message ?? "invalid"}`,
          );
        }
        seen.set(relative, parsed.workflow);
        return parsed.workflow;
      }
      return undefined;
    },
    resolved: () => [...seen.values()],
  };
};

/** The variables port: each name resolves to the user's environment variable of that name. */
export const environmentVariables = (env: NodeJS.ProcessEnv): VariablesPort => ({
  resolve: async (names) => {
    const values: Record<string, string> = {};
    for (const n of names) if (env[n] !== undefined) values[n] = env[n];
    const secrets = names
      .filter((n) => /SECRET|TOKEN|PASSWORD|KEY/i.test(n))
      .flatMap((n) => (env[n] ? [env[n]] : []));
    return { values, secrets };
  },
});

/** A catalog file: `{"connectors": {"github": {"lanes": ["default"]}}}`; no lanes means every lane. */
export const fileCatalog = (file: string): ConnectorCatalog => {
  const data = JSON.parse(readFileSync(file, "utf8")) as {
    connectors?: Record<string, { lanes?: string[] }>;
  };
  return {
    check: async (ids, lane) =>
      Object.fromEntries(
        ids.map((id) => {
          const c = data.connectors?.[id];
          return [
            id,
            !c ? "unknown" : c.lanes && !c.lanes.includes(lane ?? "default") ? "denied" : "ok",
          ];
        }),
      ),
  };
};

export type LocalRunnerOptions = { sandbox: Sandbox; network: boolean };

/** A step's `dir`: relative to the workspace, or an absolute path inside it. */
const workspaceCwd = (workspace: string, dir: string | undefined): string | undefined => {
  if (dir === undefined || dir === "") return undefined;
  const full = path.resolve(workspace, dir);
  if (full !== workspace && !full.startsWith(workspace + path.sep))
    throw new AppError(
      "USER.INPUT.VALIDATION_FAILED",
      `dir ${dir} is outside the workspace ${workspace}; steps see only the workspace`,
    );
  return path.relative(workspace, full) || undefined;
};

/**
 * Every process of the run goes through the sandbox, with only the variables the workflow
 * passes (never the caller's own environment).
 */
export const localProcessRunner =
  (opts: LocalRunnerOptions): ProcessRunner =>
  async (request) => {
    const { sandbox } = opts;
    const result = await sandbox.run(
      {
        argv: request.argv,
        cwd: workspaceCwd(sandbox.folders.workspace, request.cwd),
        env: request.env,
        network: opts.network,
      },
      { stdin: request.stdin, timeoutMs: request.timeoutMs, signal: request.signal },
    );
    return {
      exitCode: result.exitCode,
      stdout: result.stdout,
      stderr: result.stderr,
      timedOut: result.timedOut,
      cancelled: result.cancelled,
    };
  };
