/**
 * `switchyard run <file> [--input k=v]...`: runs a workflow locally with no services.
 * Shell steps run through core's process runner in the current folder with the user's
 * environment; sub-workflows are found next to the file; step events stream to stderr and
 * each step's (masked) output to stdout. Exits 0 on success, else the run's exit status or the
 * taxonomy code of its error; Ctrl-C cancels the run (stdin end, SIGTERM, SIGKILL).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { AppError, surfaceOf } from "@switchyard/core/errors";
import {
  resolveInputs,
  runWorkflow,
  validateWorkflow,
  type RunEvent,
} from "@switchyard/core/workflow";
import {
  environmentVariables,
  folderFiles,
  folderResolver,
  localProcessRunner,
} from "./local-ports";
import type { Io } from "./validate-command";

const describe = (e: RunEvent): string | undefined => {
  switch (e.type) {
    case "run.started":
    case "run.resumed":
      return `● ${e.type === "run.started" ? "run" : "resume"} ${e.workflow} (${e.runId})`;
    case "state.started":
      return `▶ ${e.state} [${e.kind}]`;
    case "state.finished":
      return `${e.status === "success" ? "✓" : "✗"} ${e.state} ${e.status}${e.exitCode === null ? "" : ` (exit ${e.exitCode})`}${e.attempts > 1 ? ` after ${e.attempts} attempts` : ""}`;
    case "step.retry":
      return `↻ ${e.state} attempt ${e.attempt} failed (exit ${e.exitCode}); retrying in ${e.delayMs} ms`;
    case "hook.finished":
      return `  hook ${e.hook}${e.state ? ` of ${e.state}` : ""} exit ${e.exitCode}`;
    case "log":
      return `  ${e.state ? `[${e.state}] ` : ""}${e.message}`;
    case "output":
      return undefined;
    case "run.finished":
      return `● ${e.status}${e.errorCode ? ` ${e.errorCode}: ${e.errorMessage ?? ""}` : ""}`;
    default: {
      const never: never = e;
      return never;
    }
  }
};

export const runRun = async (argv: string[], io: Io, env: NodeJS.ProcessEnv): Promise<number> => {
  let file: string | undefined;
  const given: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--input" || arg === "-i") {
      const pair = argv[++i] ?? "";
      const eq = pair.indexOf("=");
      if (eq <= 0)
        throw new AppError(
          "USER.INPUT.VALIDATION_FAILED",
          `--input expects key=value, got "${pair}"`,
        );
      given[pair.slice(0, eq)] = pair.slice(eq + 1);
    } else if (arg.startsWith("--input=")) {
      const pair = arg.slice("--input=".length);
      const eq = pair.indexOf("=");
      if (eq <= 0)
        throw new AppError(
          "USER.INPUT.VALIDATION_FAILED",
          `--input expects key=value, got "${pair}"`,
        );
      given[pair.slice(0, eq)] = pair.slice(eq + 1);
    } else if (arg.startsWith("-"))
      throw new AppError("USER.INPUT.VALIDATION_FAILED", `unknown option ${arg}`);
    else if (file === undefined) file = arg;
    else throw new AppError("USER.INPUT.VALIDATION_FAILED", `unexpected argument ${arg}`);
  }
  if (!file)
    throw new AppError(
      "USER.INPUT.VALIDATION_FAILED",
      "usage: switchyard run <file> [--input key=value]...",
    );
  if (!existsSync(file))
    throw new AppError("USER.INPUT.MISSING_FILE", `workflow file ${file} not found`);
  const dir = path.dirname(path.resolve(file));
  const files = folderFiles(dir);
  const resolver = folderResolver();
  const checked = await validateWorkflow(readFileSync(file, "utf8"), file, { files, resolver });
  if (!checked.workflow) {
    for (const e of checked.errors)
      io.err(
        `${file}:${e.location?.line ?? 1}:${e.location?.column ?? 1}: ${e.code} ${e.message}\n`,
      );
    return checked.errors[0]?.exitCode ?? 2;
  }
  const inputs = resolveInputs(checked.workflow.inputs, given, {
    fileExists: (p) => existsSync(path.resolve(p)),
  });
  if (inputs.errors.length > 0) {
    for (const e of inputs.errors) io.err(`${e.code} ${e.message}\n`);
    return 1;
  }
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const baseEnv = Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined),
  );
  try {
    const outcome = await runWorkflow(checked.workflow, {
      runProcess: localProcessRunner({
        cwd: process.cwd(),
        baseEnv,
      }),
      signal: controller.signal,
      inputs: inputs.values,
      files,
      resolver,
      variables: environmentVariables(env),
      events: (e) => {
        if (e.type === "output") {
          (e.stream === "stdout" ? io.out : io.err)(e.text.endsWith("\n") ? e.text : `${e.text}\n`);
          return;
        }
        const text = describe(e);
        if (text) io.err(`${text}\n`);
      },
    });
    if (outcome.status === "succeeded") return 0;
    if (outcome.exitStatus !== undefined) return outcome.exitStatus;
    return surfaceOf(outcome.errorCode ?? "EXECUTION.COMMAND_FAILED").exit;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
};
