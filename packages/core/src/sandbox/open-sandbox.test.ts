/**
 * A sandbox at the level this machine has (strict as root): its processes run as
 * its uid with its private HOME, reach what it binds, and after close() nothing of it is
 * left, neither a process nor a folder.
 */
import { chmod, chown, mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { openSandbox, type Sandbox } from "./open-sandbox";
import { reapOwner } from "./reap-owner";
import { isRoot, newOwnerId, ownedBy, sh } from "@switchyard/testing/sandbox";

/** Apart from the other sandbox tests' uids and from `switchyard run`'s default range. */
const UID_BASE = 62_200;
const myUid = process.getuid?.() ?? 0;

let scratch: string;
let server: Server | undefined;
const sandboxes: Sandbox[] = [];

beforeEach(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), "sy-sandbox-"));
  await chmod(scratch, 0o711);
});
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.close().catch(() => undefined)));
  server?.close();
  server = undefined;
  await rm(scratch, { recursive: true, force: true });
});

const open = async (extra: Partial<Parameters<typeof openSandbox>[0]> = {}) => {
  const sandbox = await openSandbox({
    ownerId: newOwnerId(),
    level: { mode: "auto", optOut: "go without" },
    scratchDir: scratch,
    stepUidBase: UID_BASE,
    ...extra,
  });
  sandboxes.push(sandbox);
  return sandbox;
};

/** A unix socket that answers "pong", writable by the sandbox's uid. */
const listen = async (file: string, uid: number | undefined) => {
  server = createServer((socket) => socket.end("pong\n"));
  await new Promise<void>((resolve) => server!.listen(file, resolve));
  if (uid !== undefined) await chown(file, uid, uid);
};

const CONNECT = `require("net").connect(process.argv[1]).on("data", (d) => process.stdout.write(d))`;

describe("openSandbox", () => {
  it("runs as its uid with a private HOME, reaches a bound socket, and close() leaves nothing", async () => {
    const sandbox = await open();
    expect(sandbox.level).toBe(isRoot ? "strict" : "namespaces");
    if (isRoot) expect(sandbox.uid).toBeGreaterThanOrEqual(UID_BASE);
    else expect(sandbox.uid).toBeUndefined();
    const sock = path.join(sandbox.folders.root, "channel.sock");
    await listen(sock, sandbox.uid);
    const bind = { path: sock, mode: "rw" as const, target: "/run/switchyard/channel.sock" };
    const inside = sandbox.pathInside(bind);
    expect(inside).toBe("/run/switchyard/channel.sock");

    const r = await sandbox.run({
      argv: sh(
        `id -u; echo $HOME; echo mine > $HOME/mark; ${process.execPath} -e '${CONNECT}' ${inside}`,
      ),
      binds: [bind],
    });
    expect(r.stderr).toBe("");
    expect(r.stdout.split("\n")).toEqual([
      String(sandbox.uid ?? myUid),
      sandbox.paths.home,
      "pong",
      "",
    ]);
    const mark = await stat(path.join(sandbox.folders.home, "mark"));
    expect(mark.uid).toBe(sandbox.uid ?? myUid);

    // A process still running at close(), with a child that left its process group.
    const proc = await sandbox.start({ argv: sh("setsid sleep 300 & sleep 300") });
    proc.stdout.resume();
    proc.stderr.resume();
    expect(ownedBy(sandbox.ownerId).length).toBeGreaterThan(0);
    await sandbox.close();
    expect(ownedBy(sandbox.ownerId)).toEqual([]);
    expect((await proc.exited).exitCode).not.toBe(0);
    expect(await readdir(scratch)).toEqual([]);
    await expect(sandbox.run({ argv: sh("true") })).rejects.toThrow(/closed/);
    await sandbox.close();
  }, 60_000);

  it("binds a config file read-only, and a step sandbox is reaped with its run", async () => {
    const config = path.join(scratch, "config.json");
    await writeFile(config, '{"a":1}\n', { mode: 0o644 });
    const run = newOwnerId();
    const sandbox = await open({
      ownerId: `${run}/step-1`,
      binds: [{ path: config, mode: "ro", target: "/etc/switchyard/config.json" }],
    });
    const r = await sandbox.run({
      argv: sh(
        "cat /etc/switchyard/config.json; echo x > /etc/switchyard/config.json || echo refused",
      ),
    });
    expect(r.stdout).toBe('{"a":1}\nrefused\n');
    const proc = await sandbox.start({ argv: sh("sleep 300") });
    expect(await reapOwner(run)).toEqual([]);
    expect(ownedBy(sandbox.ownerId)).toEqual([]);
    await proc.exited;
    await sandbox.close();
    expect(await readdir(scratch)).toEqual(["config.json"]);
  }, 60_000);

  it.skipIf(!isRoot)(
    "lends a given workspace to its uid and gives it back on close",
    async () => {
      const ws = path.join(scratch, "ws");
      await mkdir(ws, { mode: 0o750 });
      await writeFile(path.join(ws, "a.txt"), "a\n");
      const sandbox = await open({ workspace: ws, lendWorkspace: "while-open" });
      expect(sandbox.folders.workspace).toBe(ws);
      expect((await stat(path.join(ws, "a.txt"))).uid).toBe(sandbox.uid);
      const r = await sandbox.run({ argv: sh("pwd; cat a.txt; echo b > b.txt") });
      expect(r.stdout).toBe("/workspace\na\n");
      await sandbox.close();
      for (const f of [".", "a.txt", "b.txt"])
        expect((await stat(path.join(ws, f))).uid).toBe(myUid);
      expect((await stat(ws)).mode & 0o7777).toBe(0o750);
    },
    60_000,
  );

  it("without bubblewrap says how to install it and how to go without, and leaves no folder", async () => {
    const error = await open({
      level: {
        mode: "auto",
        optOut: "run with --sandbox none",
        tools: { bwrap: "/nonexistent/bwrap" },
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("SYSTEM.SANDBOX_UNAVAILABLE");
    expect((error as AppError).message).toMatch(
      /apt-get install bubblewrap.*run with --sandbox none/,
    );
    expect(await readdir(scratch)).toEqual([]);
  });
});
