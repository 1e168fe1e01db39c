/**
 * Escapes through every built-in: a workspace with a secret file in a sibling folder, and
 * every known way out (`..` chains, absolute paths, symlinks to a file and a folder, a path
 * flipped between a file and a symlink while the tools run, a hard link, /proc/self/root,
 * /proc/self/cwd, a 5,000-character path, 300 nested folders, NUL bytes, patterns that blow
 * up) tried on Read, Write, Edit, Glob, Grep, and on Bash through the sandboxed shell at
 * each confining level this machine has. The secret never shows up, nothing outside is
 * created or changed, refusals carry a code, and every call comes back within a bound.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import {
  chmod,
  link,
  mkdir,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newOwnerId } from "@switchyard/testing/sandbox";
import { BuiltinTools } from "./builtin-tools";
import { Confinement } from "./confine-path";
import { createSandboxedShell } from "./sandboxed-shell";
import { sandboxShellRunner } from "./shell-runner";
import type { ToolResult } from "./tool-provider";
import { walkFiles } from "./walk-files";

const MARKER = `OUTSIDE-MARKER-${randomBytes(6).toString("hex")}`;
/** Coarse: a call that hangs or blows up exceeds it by far. */
const BOUND_MS = 5000;
const signal = new AbortController().signal;

// Made now: the test table names these paths while it is collected.
const base = mkdtempSync(path.join(tmpdir(), "sy-escapes-"));
const root = path.join(base, "ws");
const outside = path.join(base, "outside");
const secret = path.join(outside, "secret.txt");
let tools: BuiltinTools;

const text = (r: ToolResult) => r.content.map((b) => (b.type === "text" ? b.text : "")).join("");
const NESTED = "n/".repeat(300);

const callWith = async (t: BuiltinTools, name: string, args: Record<string, unknown>) => {
  const started = performance.now();
  const r = await t.callTool(name, args, { signal });
  const label = `${name} ${JSON.stringify(args).slice(0, 160)}`;
  expect(performance.now() - started, label).toBeLessThan(BOUND_MS);
  expect(text(r), label).not.toContain(MARKER);
  return r;
};
const call = (name: string, args: Record<string, unknown>) => callWith(tools, name, args);

/** What the outside folder holds: names, contents and mtimes. */
const snapshot = async () => {
  const entries = (await readdir(outside)).sort();
  const files = await Promise.all(
    entries.map(async (name) => {
      const full = path.join(outside, name);
      const st = await stat(full);
      return { name, mtimeMs: st.mtimeMs, mode: st.mode, content: await readFile(full, "utf8") };
    }),
  );
  return { around: (await readdir(base)).sort(), files };
};
let before: Awaited<ReturnType<typeof snapshot>>;

beforeAll(async () => {
  await chmod(base, 0o711);
  await mkdir(root);
  await mkdir(path.join(base, "scratch"), { mode: 0o711 });
  await mkdir(outside, { mode: 0o700 });
  await writeFile(secret, `${MARKER}\n`, { mode: 0o600 });
  await writeFile(path.join(root, "inside.txt"), `inside\n${"a".repeat(40)}b\n`);
  await symlink(secret, path.join(root, "link-file"));
  await symlink(outside, path.join(root, "link-dir"));
  await link(secret, path.join(root, "hard"));
  await mkdir(path.join(root, NESTED), { recursive: true });
  await symlink(outside, path.join(root, NESTED, "out"));
  tools = new BuiltinTools({
    confinement: await Confinement.create(root),
    shell: sandboxShellRunner,
    shellEnv: { PATH: "/usr/bin:/bin" },
    grep: { budgetMs: 1500 },
    glob: { budgetMs: 1500 },
  });
  before = await snapshot();
});
afterAll(async () => {
  expect(await snapshot()).toEqual(before);
  await rm(base, { recursive: true, force: true });
});

/** Every way to name the secret (or its folder) from inside the workspace. */
const hostilePaths = (): Array<[string, string]> => {
  const fromCwd = path.relative(process.cwd(), secret);
  return [
    ["..", "../outside/secret.txt"],
    ["../ chain", `inside.txt/../../outside/secret.txt`],
    ["deep ../ chain", `${"../".repeat(40)}${secret.slice(1)}`],
    ["absolute", secret],
    ["symlink to file", "link-file"],
    ["symlink to folder", "link-dir/secret.txt"],
    ["hard link", "hard"],
    ["/proc/self/root", `/proc/self/root${secret}`],
    ["/proc/self/cwd/..", `/proc/self/cwd/${fromCwd}`],
    ["/proc/self/fd", "/proc/self/fd/0"],
    ["5,000 characters", `${"x/".repeat(2499)}secret.txt`],
    ["300 nested + symlink", `${NESTED}out/secret.txt`],
    ["300 nested + ../", `${NESTED}${"../".repeat(301)}outside/secret.txt`],
    ["NUL byte", "link-file\0.txt"],
    ["NUL then ..", "inside.txt\0/../../outside/secret.txt"],
  ];
};

/** A refusal names its code: "<Tool> refused: USER.X.Y: reason". */
const expectRefusedWithCode = (r: ToolResult, label: string) => {
  expect(r.isError, label).toBe(true);
  expect(text(r), label).toMatch(/^\w+ (refused|failed|stopped): \S/);
  expect(text(r), label).toMatch(/\b(USER|SYSTEM)\.[A-Z_]+\.[A-Z_]+\b/);
};

describe("Read, Write, Edit: every hostile path is refused with a code", () => {
  for (const [attack, p] of hostilePaths()) {
    it(attack, async () => {
      expectRefusedWithCode(await call("Read", { path: p }), `Read ${attack}`);
      expectRefusedWithCode(await call("Write", { path: p, content: "pwned" }), `Write ${attack}`);
      expectRefusedWithCode(
        await call("Edit", { path: p, old: "OUTSIDE", new: "pwned" }),
        `Edit ${attack}`,
      );
    });
  }
});

describe("Glob and Grep: hostile folders, patterns and globs", () => {
  for (const [attack, p] of hostilePaths()) {
    it(attack, async () => {
      const g = await call("Glob", { pattern: "*", cwd: p });
      expectRefusedWithCode(g, `Glob cwd ${attack}`);
      const s = await call("Grep", { pattern: "MARKER", path: p, output_mode: "content" });
      expectRefusedWithCode(s, `Grep path ${attack}`);
    });
  }

  it("patterns that name the outside find nothing there", async () => {
    const rel = path.relative(root, outside);
    for (const pattern of [
      "../outside/*",
      "../**",
      "**/../../**",
      `${outside}/*`,
      `/proc/self/root${outside}/*`,
      "link-dir/*",
      `${NESTED}out/*`,
      `${rel}/secret.txt`,
      "**/secret.txt",
      "**/*\0",
    ]) {
      const r = await call("Glob", { pattern });
      if (!text(r).startsWith("No files match"))
        expect(text(r), pattern).not.toMatch(/secret\.txt$/m);
      const s = await call("Grep", { pattern: "MARKER", glob: pattern, output_mode: "content" });
      expect(text(s), pattern).not.toMatch(/secret\.txt/);
    }
    // The whole workspace, symlinked folders and the hard link included, holds no marker.
    expect(text(await call("Grep", { pattern: "MARKER", output_mode: "content" }))).toBe(
      "No matches",
    );
    expect(text(await call("Grep", { pattern: "MARKER\0", output_mode: "content" }))).toBe(
      "No matches",
    );
  });

  it("patterns that blow up come back within the bound", async () => {
    const catastrophic = await call("Grep", { pattern: "(a+)+$", output_mode: "content" });
    expectRefusedWithCode(catastrophic, "Grep (a+)+$");
    expect(text(catastrophic)).toMatch(/USER\.PATTERN\.TIMEOUT/);
    for (const pattern of [
      "**/**/**/**/*",
      "{a,b}".repeat(20),
      `${"{*,*}".repeat(20)}!`,
      `${"**/".repeat(200)}*`,
    ]) {
      const r = await call("Glob", { pattern });
      if (r.isError) expectRefusedWithCode(r, `Glob ${pattern.slice(0, 40)}`);
      const s = await call("Grep", { pattern: "inside", glob: pattern });
      if (s.isError) expectRefusedWithCode(s, `Grep glob ${pattern.slice(0, 40)}`);
    }
  });
});

describe("a path flipped between a file and a symlink while the tools run", () => {
  let flipper: ChildProcess;
  const flip = (script: string) => {
    flipper = spawn(process.execPath, ["-e", script], { cwd: root, stdio: "ignore" });
  };
  afterAll(() => {
    flipper?.kill("SIGKILL");
  });

  it("never reads, writes or lists the outside (file swapped for a symlink)", async () => {
    await writeFile(path.join(root, "race"), "INSIDE\n");
    flip(
      `const fs=require("fs");for(;;){try{fs.symlinkSync(${JSON.stringify(secret)},"race.l");fs.renameSync("race.l","race");fs.writeFileSync("race.f","INSIDE\\n");fs.renameSync("race.f","race")}catch{}}`,
    );
    for (let i = 0; i < 100; i++) {
      await call("Read", { path: "race" });
      await call("Edit", { path: "race", old: "INSIDE", new: "INSIDE" });
      await call("Write", { path: "race", content: "INSIDE\n" });
      await call("Grep", { pattern: "MARKER", path: "race", output_mode: "content" });
    }
    flipper.kill("SIGKILL");
    expect(await readFile(secret, "utf8")).toBe(`${MARKER}\n`);
  }, 40_000);

  it("never reads, writes or lists the outside (folder swapped for a symlink)", async () => {
    flip(
      `const fs=require("fs");for(;;){try{fs.mkdirSync("racedir.d");fs.writeFileSync("racedir.d/secret.txt","INSIDE\\n");fs.renameSync("racedir.d","racedir");fs.symlinkSync(${JSON.stringify(outside)},"racedir.l");fs.rmSync("racedir",{recursive:true,force:true});fs.renameSync("racedir.l","racedir");fs.rmSync("racedir");}catch{try{fs.rmSync("racedir",{recursive:true,force:true})}catch{}try{fs.rmSync("racedir.d",{recursive:true,force:true})}catch{}try{fs.rmSync("racedir.l",{force:true})}catch{}}}`,
    );
    for (let i = 0; i < 200; i++) {
      await call("Read", { path: "racedir/secret.txt" });
      await call("Write", { path: "racedir/secret.txt", content: "pwned\n" });
      await call("Write", { path: "racedir/new.txt", content: "pwned\n" });
      await call("Write", { path: "racedir/sub/new.txt", content: "pwned\n" });
      await call("Edit", { path: "racedir/secret.txt", old: "INSIDE", new: "pwned" });
      await call("Glob", { pattern: "**", cwd: "racedir" });
      await call("Grep", { pattern: "MARKER", path: "racedir", output_mode: "content" });
    }
    flipper.kill("SIGKILL");
    expect(await readFile(secret, "utf8")).toBe(`${MARKER}\n`);
    expect((await readdir(outside)).sort()).toEqual(["secret.txt"]);
  }, 40_000);

  it("never lists a name from the outside (folder swapped for a symlink during the walk)", async () => {
    flip(
      `const fs=require("fs");for(;;){try{fs.mkdirSync("walkdir.d");fs.writeFileSync("walkdir.d/inner.txt","x\\n");fs.renameSync("walkdir.d","walkdir");fs.symlinkSync(${JSON.stringify(outside)},"walkdir.l");fs.rmSync("walkdir",{recursive:true,force:true});fs.renameSync("walkdir.l","walkdir");fs.rmSync("walkdir");}catch{try{fs.rmSync("walkdir",{recursive:true,force:true})}catch{}try{fs.rmSync("walkdir.d",{recursive:true,force:true})}catch{}try{fs.rmSync("walkdir.l",{force:true})}catch{}}}`,
    );
    for (let i = 0; i < 150; i++) {
      const g = await call("Glob", { pattern: "**", cwd: "walkdir" });
      expect(text(g)).not.toContain("secret.txt");
      const s = await call("Grep", { pattern: ".", path: "walkdir" });
      expect(text(s)).not.toContain("secret.txt");
    }
    // From the root the walk reads the parent first and the folder later: a wider window.
    for (let i = 0; i < 30; i++) {
      const g = await call("Glob", { pattern: "walkdir/**" });
      expect(text(g)).not.toContain("secret.txt");
    }
    flipper.kill("SIGKILL");
  }, 40_000);

  it("the walk does not follow a folder that is a symlink when it is read (the race, made certain)", async () => {
    // What a folder swapped between its check and its listing looks like to the walk.
    expect((await walkFiles(root, path.join(root, "link-dir"))).entries).toEqual([]);
    expect((await walkFiles(root, path.join(root, NESTED, "out"))).entries).toEqual([]);
  });
});

const BASH_ATTACKS = [
  "cat ../outside/secret.txt",
  `cat ${secret}`,
  "cat link-file",
  "cat link-dir/secret.txt",
  "cat hard",
  `cat /proc/self/root${secret}`,
  `cat /proc/1/root${secret}`,
  "cat /proc/self/cwd/../outside/secret.txt",
  `cat ${NESTED}out/secret.txt`,
  `cd ${NESTED} && cat ${"../".repeat(301)}outside/secret.txt`,
  `cat $(printf 'x/%.0s' $(seq 2499))secret.txt`,
  `ln ${secret} h2 && cat h2`,
  `ln -s ${secret} s2 && cat s2`,
  `echo pwned > ${secret}`,
  `echo pwned > ${outside}/new.txt`,
  "echo pwned > link-dir/new.txt",
  "echo pwned >> link-file",
  'grep -rl OUTSIDE-MARKER /workspace /tmp "$HOME" 2>/dev/null',
];

// `none` is no confinement by design (docs/sandbox.md): Bash at that level is left out.
describe.each(["strict", "namespaces"] as const)("Bash at sandbox level %s", (level) => {
  let shell: ReturnType<typeof createSandboxedShell>;
  let bash: BuiltinTools;
  const seen: string[] = [];
  beforeAll(async () => {
    shell = createSandboxedShell({
      root,
      network: false,
      scratchDir: path.join(base, "scratch"),
      ownerId: newOwnerId(),
      stepUidBase: 62_400,
      mode: level,
      onLevel: (l) => seen.push(l),
    });
    bash = new BuiltinTools({
      confinement: await Confinement.create(root),
      shell: shell.run,
      shellEnv: {},
    });
  });
  afterAll(async () => {
    await shell.close();
    await rm(path.join(root, "h2"), { force: true });
    await rm(path.join(root, "s2"), { force: true });
  });

  // At namespaces the step runs as the worker's own uid, so a hard link somebody else left
  // in the workspace reads like the file it aliases (the step cannot make one: the outside
  // is not mounted). Only a uid of its own (strict) keeps such a file closed.
  const attacks = level === "strict" ? BASH_ATTACKS : BASH_ATTACKS.filter((a) => a !== "cat hard");
  for (const attack of attacks) {
    it(`fails: ${attack.slice(0, 70)}`, async () => {
      const r = await callWith(bash, "Bash", { command: attack, timeout_seconds: 4 });
      expect(seen).toEqual([level]);
      expect(text(r)).not.toMatch(/^timed out/);
    });
  }

  it("a cwd outside, through a symlink or /proc is refused with a code", async () => {
    for (const [attack, p] of hostilePaths()) {
      const r = await callWith(bash, "Bash", { command: "cat secret.txt; pwd", cwd: p });
      expectRefusedWithCode(r, `Bash cwd ${attack}`);
    }
  });

  it("a command that never ends is stopped at its timeout", async () => {
    const r = await callWith(bash, "Bash", { command: "while :; do :; done", timeout_seconds: 1 });
    expect(text(r)).toMatch(/^timed out after 1 s/);
  });
});
