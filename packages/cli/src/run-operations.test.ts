/**
 * `switchyard run` does not run operation states (they run on a server, under its egress
 * rule and with the team's variables): it refuses the workflow before any step runs,
 * naming the state's file and line.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";

const bin = path.resolve(import.meta.dirname, "../bin/switchyard.mjs");
let ws: string;

beforeEach(() => {
  ws = mkdtempSync(path.join(tmpdir(), "sy-ops-ws-"));
});
afterEach(() => rmSync(ws, { recursive: true, force: true }));

it("refuses an operation state at its line before any step runs", () => {
  const file = path.join(ws, "wf.yaml");
  writeFileSync(
    file,
    `name: wf
states:
  initial: first
  first: { type: step, command: touch ran, on_success: fetch }
  fetch:
    type: operation
    operation: http.request
    inputs: { method: GET, url: "https://example.com" }
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
  expect(r.status).toBe(1);
  expect(r.stderr).toContain(`${file}:6:5: USER.UNSUPPORTED_FEATURE "fetch" is an operation state`);
  expect(existsSync(path.join(ws, "ran"))).toBe(false);
});
