/**
 * For the real-CLI tests: a step's folders as the worker lays them out, the switchyard bin
 * they start the proxy from, the proxy's call records, a trace of a failed run, and the
 * processes a step leaves, found in /proc by its private HOME (the CLI, its MCP server) or by
 * the marked sleep of its Bash command, with waits that have a deadline.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ScriptedModel } from "@switchyard/scripted-model";
import { expect } from "vitest";
import { listPids, pidsWithEnv } from "@switchyard/core/sandbox";
import { procStat } from "./plain-spawn";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
export const CLI_BIN = path.join(REPO, "packages/cli/bin/switchyard.mjs");
/** The agents folder of a test: SWITCHYARD_AGENTS_DIR of the given environment, else ~/.cache/switchyard/agents. */
export const agentsDirOf = (env: Record<string, string | undefined>) =>
  env.SWITCHYARD_AGENTS_DIR || path.join(homedir(), ".cache/switchyard/agents");

/** The proxy starts from its bundle (a fast start keeps it ahead of the CLI's first request). */
export const buildSwitchyardBin = () => {
  const build = spawnSync(process.execPath, [path.join(REPO, "packages/cli/bin/build.mjs")], {
    cwd: path.join(REPO, "packages/cli"),
    encoding: "utf8",
  });
  if (build.status !== 0) throw new Error(`building the switchyard bin failed: ${build.stderr}`);
};

export type TestStep = {
  dir: string;
  home: string;
  work: string;
  conf: string;
  records: string;
  sleep: string;
};

/** Folders as the worker lays them out: a private HOME and temp folder, a workspace, the proxy's config (conf/proxy.json). */
export const makeTestStep = async (prefix: string): Promise<TestStep> => {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  // The proxy's Bash sandbox (as root, its own uid) must be able to enter the folders above the workspace.
  await chmod(dir, 0o711);
  const step = {
    dir,
    home: path.join(dir, "home"),
    work: path.join(dir, "work"),
    conf: path.join(dir, "conf"),
    records: path.join(dir, "conf/records.jsonl"),
    sleep: `sleep ${sleepMark()}`,
  };
  for (const d of [step.home, step.conf, path.join(dir, "tmp")]) await mkdir(d, { mode: 0o700 });
  await mkdir(step.work, { mode: 0o755 });
  await writeFile(
    path.join(step.conf, "proxy.json"),
    JSON.stringify({ root_dir: step.work, record_file: step.records }),
  );
  return step;
};

/** The proxy's call records, in order. */
export const readRecords = async (step: Pick<TestStep, "records">) =>
  (await readFile(step.records, "utf8"))
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { tool: string; is_error: boolean; via?: "call_tool" });

/** What a failed run's assertion prints: its outcome, stderr, stdout and the model's view. */
export const traceRun = (
  r: { status: string; error?: string; stderrTail: string; stdout: string },
  model: ScriptedModel,
) =>
  [
    `status ${r.status} ${r.error ?? ""}`,
    `stderr: ${r.stderrTail.slice(-2000)}`,
    `stdout: ${r.stdout.slice(-3000)}`,
    `requests: ${model.requests.map((q) => `${q.method} ${q.path} ${JSON.stringify(q.answeredBy)} ${q.status}`).join("\n  ")}`,
    `failures: ${JSON.stringify(model.failures, null, 1)}`,
  ].join("\n");

/** The script of a step cut short: one turn that runs the step's marked sleep through the proxy's Bash (`named("Bash")`, as the CLI names it). */
export const longBashScript = (named: (tool: string) => string, step: Pick<TestStep, "sleep">) => ({
  script: {
    turns: [
      {
        label: "long bash",
        toolCalls: [{ name: named("Bash"), arguments: { command: step.sleep } }],
      },
    ],
  },
});

/** A sleep of a length no other test uses, to find the proxy's command in /proc. */
export const sleepMark = () =>
  `6${Math.floor(Math.random() * 9)}.${Math.floor(Math.random() * 9000) + 1000}`;

export const cmdline = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
  } catch {
    return "";
  }
};

const isZombie = (pid: number) => (procStat(pid)?.state ?? "Z") === "Z";

type StepMarks = Pick<TestStep, "home" | "sleep">;

/** Live processes of the step: by its HOME (the CLI, the proxy) or by the marked sleep of its Bash command. */
export const leftovers = (step: StepMarks) =>
  [
    ...pidsWithEnv("HOME", step.home),
    ...listPids().filter((pid) => cmdline(pid).includes(step.sleep)),
  ].filter((pid) => !isZombie(pid));

const describePid = (pid: number) => {
  const status = (() => {
    try {
      return readFileSync(`/proc/${pid}/status`, "utf8");
    } catch {
      return "";
    }
  })();
  const field = (name: string) => new RegExp(`^${name}:\\s+(\\S+)`, "m").exec(status)?.[1];
  return `${pid} (ppid ${field("PPid")}, uid ${field("Uid")}): ${cmdline(pid)}`;
};

/** Waits (a generous deadline) until nothing of the step runs, else fails naming what is left. */
export const expectNothingLeft = async (step: StepMarks, ms = 15_000) => {
  const end = Date.now() + ms;
  while (leftovers(step).length > 0 && Date.now() < end)
    await new Promise((r) => setTimeout(r, 50));
  expect(leftovers(step).map(describePid)).toEqual([]);
};

export const waitFor = async (what: string, check: () => boolean, ms: number) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

/**
 * Whether the step's Bash command (its marked sleep) itself runs: not just a process that
 * names it (the sandbox's launcher and bwrap do while they set up), so a stop now finds the
 * command's sandbox complete.
 */
export const sleepRuns = (step: Pick<StepMarks, "sleep">) =>
  listPids().some((pid) => cmdline(pid).startsWith(`${step.sleep} `) && !isZombie(pid));

/** The process the spawn port started for the step (the CLI, or what execs it): the leader of its group. */
export const stepLeader = (step: Pick<TestStep, "home">) =>
  pidsWithEnv("HOME", step.home).find((pid) => procStat(pid)?.pgrp === pid && !isZombie(pid));
