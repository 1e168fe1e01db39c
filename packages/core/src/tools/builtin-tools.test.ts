import { link, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BuiltinTools } from "./builtin-tools";
import { Confinement } from "./confine-path";
import { sandboxShellRunner } from "./shell-runner";
import type { ToolResult } from "./tool-provider";

let base: string;
let root: string;
let outside: string;
let tools: BuiltinTools;
const signal = new AbortController().signal;

const text = (r: ToolResult) => r.content.map((b) => (b.type === "text" ? b.text : "")).join("");
const call = (name: string, args: Record<string, unknown>) =>
  tools.callTool(name, args, { signal });

beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), "sy-builtins-"));
  root = path.join(base, "ws");
  outside = path.join(base, "outside");
  await mkdir(root);
  await mkdir(outside);
  await writeFile(path.join(outside, "secret.txt"), "TOP SECRET\n");
  await writeFile(path.join(root, "a.txt"), "one\ntwo\nthree\n");
  tools = new BuiltinTools({
    confinement: await Confinement.create(root),
    shell: sandboxShellRunner,
    shellEnv: { PATH: "/usr/bin:/bin" },
    grep: { budgetMs: 1500 },
  });
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("confinement: hostile paths through every file built-in", () => {
  const hostile = async () => {
    await symlink(path.join(outside, "secret.txt"), path.join(root, "link-out"));
    await symlink(outside, path.join(root, "dir-out"));
    await link(path.join(outside, "secret.txt"), path.join(root, "hard"));
    return [
      "../outside/secret.txt",
      path.join(outside, "secret.txt"),
      "link-out",
      "dir-out/secret.txt",
      "hard",
      "/proc/self/environ",
      "/dev/zero",
      "a\0b",
      `${"x/".repeat(3000)}f`,
      "/etc/passwd",
    ];
  };

  it("Read refuses each one with a readable isError result", async () => {
    for (const p of await hostile()) {
      const r = await call("Read", { path: p });
      expect(r.isError, p).toBe(true);
      expect(text(r)).toMatch(/refused/);
      expect(text(r)).not.toContain("TOP SECRET");
    }
  });

  it("Write and Edit refuse each one and leave the outside file untouched", async () => {
    for (const p of await hostile()) {
      expect((await call("Write", { path: p, content: "pwned" })).isError, p).toBe(true);
      expect((await call("Edit", { path: p, old: "TOP", new: "pwned" })).isError, p).toBe(true);
    }
    expect(await readFile(path.join(outside, "secret.txt"), "utf8")).toBe("TOP SECRET\n");
  });

  it("Write refuses to create a file through a dangling symlink", async () => {
    await symlink(path.join(outside, "new.txt"), path.join(root, "dangling"));
    const r = await call("Write", { path: "dangling", content: "x" });
    expect(r.isError).toBe(true);
    await expect(stat(path.join(outside, "new.txt"))).rejects.toThrow();
  });

  it("Glob, Grep and Bash refuse a cwd or path outside, and Grep skips hard links and outside symlinks", async () => {
    await hostile();
    expect((await call("Glob", { pattern: "*", cwd: "../outside" })).isError).toBe(true);
    expect((await call("Grep", { pattern: "SECRET", path: "/proc/self" })).isError).toBe(true);
    expect((await call("Bash", { command: "pwd", cwd: "dir-out" })).isError).toBe(true);
    const g = await call("Grep", { pattern: "SECRET", output_mode: "content" });
    expect(text(g)).toBe("No matches");
  });

  it("allows symlinks that stay inside the workspace", async () => {
    await symlink(path.join(root, "a.txt"), path.join(root, "inside-link"));
    expect(text(await call("Read", { path: "inside-link" }))).toBe("one\ntwo\nthree");
    expect(text(await call("Read", { path: path.join(root, "a.txt") }))).toBe("one\ntwo\nthree");
  });
});

describe("built-ins", () => {
  it("Read pages by line with a note about the rest", async () => {
    const r = await call("Read", { path: "a.txt", offset: 2, limit: 1 });
    expect(text(r)).toBe("two\n[1 more lines; continue with offset 3]");
    expect((await call("Read", { path: "nope.txt" })).isError).toBe(true);
    expect(text(await call("Read", {}))).toMatch(/Invalid arguments for Read: path/);
  });

  it("Write creates parents atomically; Edit is literal and insists on a unique match", async () => {
    expect((await call("Write", { path: "d/e/f.txt", content: "x $& y x" })).isError).toBeFalsy();
    const edited = await call("Edit", { path: "d/e/f.txt", old: "x", new: "$1" });
    expect(edited.isError).toBe(true);
    expect(text(edited)).toMatch(/occurs 2 times/);
    expect(
      (await call("Edit", { path: "d/e/f.txt", old: "x", new: "$&", replace_all: true })).isError,
    ).toBeFalsy();
    expect(await readFile(path.join(root, "d/e/f.txt"), "utf8")).toBe("$& $& y $&");
    expect(text(await call("Edit", { path: "d/e/f.txt", old: "zzz", new: "q" }))).toMatch(
      /not found/,
    );
  });

  it("Bash returns the exit code and output and runs in the workspace", async () => {
    const r = await call("Bash", { command: "pwd; echo err >&2; exit 3" });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain("exit code 3");
    expect(text(r)).toContain(root);
    expect(text(r)).toContain("stderr:\nerr");
    const t = await call("Bash", { command: "sleep 5", timeout_seconds: 0.3 });
    expect(text(t)).toMatch(/timed out/);
  });

  it("Bash runs a long command, and refuses one longer than one argument may be, saying what to do", async () => {
    const long = await call("Bash", { command: `: ${"x".repeat(100 * 1024)}; echo fine` });
    expect(text(long)).toContain("stdout:\nfine");
    const tooLong = await call("Bash", { command: `: ${"x".repeat(200 * 1024)}; echo never` });
    expect(tooLong.isError).toBe(true);
    expect(text(tooLong)).toMatch(/command is 204,\d+ bytes; at most 131,071.*Write.*script/);
  });

  it("Glob recurses with ** and sorts", async () => {
    await mkdir(path.join(root, "src/deep/er"), { recursive: true });
    await writeFile(path.join(root, "src/b.ts"), "");
    await writeFile(path.join(root, "src/deep/er/a.ts"), "");
    await writeFile(path.join(root, "src/deep/c.js"), "");
    expect(text(await call("Glob", { pattern: "**/*.ts" }))).toBe("src/b.ts\nsrc/deep/er/a.ts");
    expect(text(await call("Glob", { pattern: "*.{ts,js}", cwd: "src/deep" }))).toBe(
      "src/deep/c.js",
    );
    expect(text(await call("Glob", { pattern: `${root}/src/*.ts` }))).toBe("src/b.ts");
    expect(text(await call("Glob", { pattern: "src/**" }))).toBe(
      "src/b.ts\nsrc/deep/c.js\nsrc/deep/er/a.ts",
    );
  });

  it("Glob and Grep's glob answer a brace-and-star pattern that used to backtrack for minutes", async () => {
    await writeFile(path.join(root, "a".repeat(40)), "two\n");
    await writeFile(path.join(root, `${"a".repeat(40)}!`), "two\n");
    const hostile = `${"{*,*}".repeat(8)}!`;
    expect(text(await call("Glob", { pattern: hostile }))).toBe(`${"a".repeat(40)}!`);
    expect(text(await call("Grep", { pattern: "two", glob: hostile }))).toBe(`${"a".repeat(40)}!`);
  });

  it("Glob refuses an oversized pattern and stops at its budget, naming the code and the limit", async () => {
    const tooLong = await call("Glob", { pattern: "a".repeat(5000) });
    expect(tooLong.isError).toBe(true);
    expect(text(tooLong)).toBe(
      "Glob failed: USER.PATTERN.TOO_COMPLEX: the glob pattern is longer than 4096 characters",
    );
    const hurried = new BuiltinTools({
      confinement: await Confinement.create(root),
      shell: sandboxShellRunner,
      shellEnv: {},
      glob: { budgetMs: 0 },
    });
    const r = await hurried.callTool("Glob", { pattern: "**" }, { signal });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/^Glob failed: USER\.PATTERN\.TIMEOUT: pattern took longer than 0 ms/);
  });

  it("Grep finds content, files and counts, skips binaries, honours glob and case", async () => {
    await writeFile(path.join(root, "b.md"), "Two\ntwo\n");
    await writeFile(path.join(root, "bin.dat"), Buffer.from([0x74, 0x77, 0x6f, 0, 1]));
    expect(text(await call("Grep", { pattern: "^two$", output_mode: "content" }))).toBe(
      "a.txt:2:two\nb.md:2:two\n[1 binary files skipped]",
    );
    expect(
      text(
        await call("Grep", {
          pattern: "two",
          glob: "*.md",
          case_insensitive: true,
          output_mode: "count",
        }),
      ),
    ).toBe("b.md:2");
    expect(text(await call("Grep", { pattern: "tw" }))).toBe(
      "a.txt\nb.md\n[1 binary files skipped]",
    );
  });

  it("Grep stops a catastrophic regex within its budget instead of stalling", async () => {
    await writeFile(path.join(root, "evil.txt"), `${"a".repeat(40)}!\n`);
    const started = Date.now();
    const r = await call("Grep", { pattern: "^(a+)+$", output_mode: "content" });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(
      /^Grep stopped: USER\.PATTERN\.TIMEOUT: pattern took longer than 1500 ms; the regular expression is too slow/,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
