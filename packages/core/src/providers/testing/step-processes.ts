/**
 * For the real-CLI tests: the processes a step leaves, found in /proc by its private HOME
 * (the CLI, its MCP server) or by the marked sleep of its Bash command, and waits with a
 * deadline until none is left.
 */
import { readFileSync } from "node:fs";
import { expect } from "vitest";
import { listPids, pidsWithEnv } from "../../sandbox/proc-scan";

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

const isZombie = (pid: number) => {
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
};

export type StepMarks = { home: string; sleep: string };

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

/** Whether the step's Bash command (its marked sleep) is running. */
export const sleepRuns = (step: StepMarks) =>
  listPids().some((pid) => cmdline(pid).includes(step.sleep));
