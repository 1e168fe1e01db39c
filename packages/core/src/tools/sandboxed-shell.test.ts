/**
 * The hand-run proxy's Bash: closing it while a command still runs ends that command first
 * and only then removes its private folders, so nothing of it outlives the proxy.
 */
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { newOwnerId, ownedBy } from "@switchyard/testing/sandbox";
import { createSandboxedShell } from "./sandboxed-shell";

let base: string;
let root: string;
let scratch: string;

beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), "sy-bash-"));
  await chmod(base, 0o711);
  root = path.join(base, "ws");
  scratch = path.join(base, "scratch");
  await mkdir(root);
  await mkdir(scratch, { mode: 0o711 });
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

it("close() ends a running command before it removes the private folders", async () => {
  const ownerId = newOwnerId();
  const shell = createSandboxedShell({
    root,
    network: false,
    scratchDir: scratch,
    ownerId,
    stepUidBase: 62_300,
  });
  const running = shell.run({
    command: "echo started > started; sleep 300",
    cwd: root,
    env: {},
    timeoutMs: 300_000,
    signal: new AbortController().signal,
    outputCap: 1024,
  });
  for (let i = 0; i < 400 && !existsSync(path.join(root, "started")); i++)
    await new Promise((resolve) => setTimeout(resolve, 50));
  expect(ownedBy(ownerId).length).toBeGreaterThan(0);
  await shell.close();
  expect(ownedBy(ownerId)).toEqual([]);
  expect(await readdir(scratch)).toEqual([]);
  expect((await running).exitCode).not.toBe(0);
}, 60_000);
