/**
 * `switchyard run` without a required input, as a person on a laptop: uid 65534 (when the
 * suite is root) with a HOME of its own, through the real bin. At a real pseudo-terminal
 * (python3's pty module) AWF's prompts ask for each input not given, a wrong choice or value
 * is said and asked again, Enter takes an optional input's default, and the run goes on
 * with the answers; Ctrl+C ends the collection with AWF's words and exit 1. With stdin a pipe
 * the run is refused with AWF's non-terminal error, before any step.
 */
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  openPersonCli,
  personFolder,
  runAsPerson as runCli,
  type PersonRun,
} from "@switchyard/testing/sandbox";
import { deployInputsWorkflow } from "@switchyard/testing/workflow";
import { afterAll, beforeAll, expect, it } from "vitest";

let base: string;
let bin: string;
let flow: string;
let workspace: string;

beforeAll(async () => {
  ({ base, bin } = await openPersonCli("sy-run-inputs-"));
  workspace = personFolder(path.join(base, "work"));
  flow = path.join(base, "deploy.yaml");
  writeFileSync(flow, deployInputsWorkflow("deploy"), { mode: 0o644 });
}, 300_000);
afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

/** `switchyard run <flow> ...args` as the person; stdin a pipe holding `stdin`, or a terminal playing `script`. */
const runAsPerson = (args: string[], how: PersonRun["how"]) =>
  runCli({
    bin,
    args: ["run", flow, ...args],
    cwd: workspace,
    env: { HOME: path.join(base, "home"), TERM: "dumb" },
    how,
    timeoutMs: 120_000,
  });

it("prompts at a terminal as AWF does, retries what is wrong, and runs with the answers", async () => {
  const r = await runAsPerson(["--input", "dry_run=false"], {
    script: [
      ["Select option (1-3): ", "7\r"],
      ['Error: invalid selection "7" (valid: 1-3)', ""],
      ["Select option (1-3): ", "2\r"],
      ["Pattern: ^v\\d+\\.\\d+\\.\\d+$", ""],
      ["> ", "1.2.3\r"],
      ['Error: value "1.2.3" does not match pattern', ""],
      ["> ", "v1.2.3\r"],
    ],
  });
  expect(r.out).toContain("Enter value for 'environment' (string, required)");
  expect(r.out).toContain("Description: Target environment");
  expect(r.out).toMatch(/Options:\r?\n {2}1\. dev\r?\n {2}2\. staging\r?\n {2}3\. prod/);
  expect(r.out).toContain("✓ Selected: staging");
  expect(r.out).toContain("✓ Accepted");
  expect(r.out).not.toContain("'dry_run'");
  expect(r.out).toContain("deploying v1.2.3 to staging dry=false");
  expect(r.code).toBe(0);
}, 120_000);

it("takes an optional input's default on Enter, and Ctrl+C ends the collection with exit 1", async () => {
  const ok = await runAsPerson(["--input", "environment=dev", "--input", "version=v2.0.0"], {
    stdin: "",
  });
  expect(ok.code).toBe(0);
  const defaulted = await runAsPerson(["--input", "environment=prod"], {
    script: [
      ["> ", "v3.1.4\r"],
      ["Press Enter to use default", ""],
      ["> ", "\r"],
    ],
  });
  expect(defaulted.out).toContain("Enter value for 'dry_run' (boolean, optional, default: false)");
  expect(defaulted.out).toContain("✓ Using default: false");
  expect(defaulted.out).toContain("deploying v3.1.4 to prod dry=false");
  expect(defaulted.code).toBe(0);

  const cancelled = await runAsPerson([], { script: [["Select option (1-3): ", "\x03"]] });
  expect(cancelled.out).toContain("Error: input collection cancelled by user");
  expect(cancelled.out).not.toContain("deploying");
  expect(cancelled.code).toBe(1);
}, 120_000);

it("refuses with AWF's error when stdin is not a terminal", async () => {
  const r = await runAsPerson([], { stdin: "prod\n" });
  expect(r.err).toContain(
    "Error: missing required inputs and stdin is not a terminal; provide inputs via --input flags",
  );
  expect(r.err).not.toContain("Enter value for");
  expect(r.out).not.toContain("deploying");
  expect(r.code).toBe(1);
}, 60_000);
