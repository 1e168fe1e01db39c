/**
 * The engine's ports for running on a person's machine: bundle files read from the
 * workflow's folder (never outside it), sub-workflows found by name next to the file,
 * variables from the user's environment, an optional connector catalog from a JSON file,
 * and shell steps and hooks run through the step sandbox over the user's workspace.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { AppError } from "@switchyard/core/errors";
import { runSandboxed } from "@switchyard/core/sandbox";
import type { LocalSandbox } from "./local-sandbox";
import {
  parseWorkflow,
  type BundleFiles,
  type ConnectorCatalog,
  type ProcessRunner,
  type VariablesPort,
  type WorkflowResolver,
} from "@switchyard/core/workflow";

const MAX_FILE = 1024 * 1024;

export const folderFiles = (dir: string): BundleFiles => ({
  read: (relative) => {
    const full = path.resolve(dir, relative);
    if (full !== dir && !full.startsWith(dir + path.sep)) return undefined;
    try {
      if (statSync(full).size > MAX_FILE) return undefined;
      return readFileSync(full, "utf8");
    } catch {
      return undefined;
    }
  },
});

/** `workflow: name` resolves to name.yaml, name.yml or the path itself, next to the calling file. */
export const folderResolver = (): WorkflowResolver => ({
  resolve: async (name, from) => {
    const dir = path.dirname(path.resolve(from.file));
    const candidates = [`${name}.yaml`, `${name}.yml`, name].map((c) => path.resolve(dir, c));
    const file = candidates.find(
      (c) => (c === dir || c.startsWith(dir + path.sep)) && existsSync(c) && statSync(c).isFile(),
    );
    if (!file) return undefined;
    const parsed = parseWorkflow(readFileSync(file, "utf8"), file);
    if (!parsed.workflow) {
      const first = parsed.errors[0];
      throw new AppError(
        first?.code ?? "WORKFLOW.VALIDATION.INVALID_VALUE",
        `sub-workflow ${file}: ${first?.message ?? "invalid"}`,
      );
    }
    return parsed.workflow;
  },
});

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

export type LocalRunnerOptions = { sandbox: LocalSandbox; network: boolean };

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
    const result = await runSandboxed(
      sandbox.host,
      {
        argv: request.argv,
        workspace: sandbox.workspace,
        home: sandbox.home,
        tmp: sandbox.tmp,
        cwd: workspaceCwd(sandbox.workspace, request.cwd),
        env: request.env,
        network: opts.network,
        uid: sandbox.uid,
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
