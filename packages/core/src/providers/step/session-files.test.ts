import { lstat, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isAppError } from "../../errors/app-error";
import { findSessionFiles, readSessionFiles, writeSessionFiles } from "./session-files";

const AS_ROOT = process.getuid?.() === 0;
/** The step uid a root worker hands the files to (nobody, as in a sandbox without a pool). */
const STEP_UID = AS_ROOT ? 65534 : (process.getuid?.() ?? 0);

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "session-files-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const codeOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    if (isAppError(error)) return error.code;
    throw error;
  }
  return "no error";
};

describe("session files", () => {
  it("round-trips a session into a fresh HOME, the step uid's, folders 0700, modes kept", async () => {
    const old = path.join(dir, "old");
    await mkdir(path.join(old, ".claude/projects/-workspace/abc"), { recursive: true });
    await writeFile(path.join(old, ".claude/projects/-workspace/abc.jsonl"), '{"a":1}\n', {
      mode: 0o600,
    });
    await writeFile(path.join(old, ".claude/projects/-workspace/abc/tool-1.txt"), "big");
    await writeFile(path.join(old, ".claude/projects/-workspace/other.jsonl"), "no");
    const found = await findSessionFiles(old, ".claude/projects", (relative) =>
      relative.includes("/abc"),
    );
    expect(found).toEqual([
      ".claude/projects/-workspace/abc.jsonl",
      ".claude/projects/-workspace/abc/tool-1.txt",
    ]);
    const files = await readSessionFiles(old, found);
    expect(files[0]).toEqual({
      path: ".claude/projects/-workspace/abc.jsonl",
      mode: 0o600,
      data: Buffer.from('{"a":1}\n').toString("base64"),
    });

    const fresh = path.join(dir, "new");
    await mkdir(fresh, { mode: 0o700 });
    await writeSessionFiles(fresh, files, STEP_UID);
    expect(await readFile(path.join(fresh, found[1]!), "utf8")).toBe("big");
    for (const relative of [".claude", ".claude/projects/-workspace", found[0]!, found[1]!]) {
      const info = await lstat(path.join(fresh, relative));
      expect(info.uid, relative).toBe(STEP_UID);
      expect(info.mode & 0o077, relative).toBe(0);
    }
  });

  it("never reads through a link the step planted, nor finds one", async () => {
    const home = path.join(dir, "home");
    await mkdir(path.join(home, ".codex/sessions"), { recursive: true });
    await writeFile(path.join(dir, "host-secret"), "secret");
    await symlink(
      path.join(dir, "host-secret"),
      path.join(home, ".codex/sessions/rollout-x.jsonl"),
    );
    await symlink(dir, path.join(home, ".codex/sessions/up"));
    expect(await findSessionFiles(home, ".codex/sessions", () => true)).toEqual([]);
    expect(await codeOf(readSessionFiles(home, [".codex/sessions/rollout-x.jsonl"]))).toBe(
      "EXECUTION.AGENT_CANNOT_RESUME",
    );
    expect(await codeOf(readSessionFiles(home, [".codex/sessions/up/host-secret"]))).toBe(
      "EXECUTION.AGENT_CANNOT_RESUME",
    );
  });

  it("refuses a file path that leaves HOME, or a folder on its way that is not a folder", async () => {
    const home = path.join(dir, "home");
    await mkdir(home);
    for (const bad of ["../escape", "/etc/passwd", "a/../../b", ""])
      expect(
        await codeOf(writeSessionFiles(home, [{ path: bad, mode: 0o600, data: "" }], STEP_UID)),
        bad,
      ).toBe("EXECUTION.AGENT_CANNOT_RESUME");
    await symlink(dir, path.join(home, "link"));
    expect(
      await codeOf(writeSessionFiles(home, [{ path: "link/x", mode: 0o600, data: "" }], STEP_UID)),
    ).toBe("EXECUTION.AGENT_CANNOT_RESUME");
    await expect(lstat(path.join(dir, "x"))).rejects.toThrow();
  });
});
