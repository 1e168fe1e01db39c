/**
 * `switchyard run` keeps no session between local steps: a workflow with
 * `conversation.continue_from` is refused before any step runs, at the line of
 * `continue_from`, rather than run with a recall that remembers nothing. Through the real bin.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";

const bin = path.resolve(import.meta.dirname, "../bin/switchyard.mjs");
let ws: string;

beforeEach(() => {
  ws = mkdtempSync(path.join(tmpdir(), "sy-sessions-ws-"));
});
afterEach(() => rmSync(ws, { recursive: true, force: true }));

it("refuses continue_from at its line before any step runs", () => {
  const file = path.join(ws, "wf.yaml");
  writeFileSync(
    file,
    `name: wf
states:
  initial: first
  first:
    type: step
    command: touch ran.txt
    on_success: seed
  seed:
    type: agent
    provider: openai_compatible
    prompt: remember BANANA42
    conversation: {}
    on_success: recall
  recall:
    type: agent
    provider: openai_compatible
    prompt: what was it?
    conversation:
      continue_from: seed
    on_success: done
  done: { type: terminal }
`,
  );
  const r = spawnSync(process.execPath, [bin, "run", file], {
    encoding: "utf8",
    cwd: ws,
    env: { ...process.env, SWITCHYARD_SANDBOX: "" },
    timeout: 45_000,
  });
  expect(r.status, r.stderr).toBe(1);
  expect(r.stderr).toContain(`${file}:19:`);
  expect(r.stderr).toContain("USER.UNSUPPORTED_FEATURE");
  expect(r.stderr).toContain("conversation.continue_from");
  expect(spawnSync("ls", [ws], { encoding: "utf8" }).stdout).not.toContain("ran.txt");
});
