/**
 * What a step is for still works inside the sandbox: a shell with coreutils, git and node
 * in the workspace, stdin in and output captured (capped), files owned by the step uid
 * and removable by the worker, the long-running stdio form, and every level.
 */
import { mkdir, rm, stat } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { detectSandbox } from "./detect-sandbox";
import { runSandboxed } from "./run-sandboxed";
import type { SandboxHost } from "./sandbox-types";
import { startSandboxed } from "./start-sandboxed";
import {
  detectForTest,
  isRoot,
  makeStepDirs,
  ownedBy,
  removeStepDirs,
  sh,
  spec,
  withOwner,
  type StepDirs,
} from "@switchyard/testing/sandbox";

const UID = 61300;

let host: SandboxHost;
let dirs: StepDirs;
beforeAll(async () => {
  host = await detectForTest(UID);
  dirs = await makeStepDirs();
});
afterAll(() => removeStepDirs(dirs));

const SHELL_STEP = [
  "set -e",
  "mkdir -p src && printf 'b\\na\\nc\\n' > src/list.txt",
  "sort src/list.txt | tr a-z A-Z | head -n 2 > sorted.txt && cat sorted.txt",
  "wc -l < src/list.txt",
  "git init -q repo && cd repo",
  "echo hello > readme && git add readme",
  "git -c user.name=Step -c user.email=step@example.invalid commit -q -m first",
  "git log --format=%s",
  "cd ..",
  "cat > calc.js <<'JS'\nconst fs = require('fs');\nfs.writeFileSync('from-node.txt', String(6 * 7));\nconsole.log('node says', fs.readFileSync('from-node.txt', 'utf8'), process.cwd());\nJS",
  "node calc.js",
  "echo to-stderr >&2",
].join("\n");

describe("a sandboxed shell step", () => {
  it("uses sh, coreutils, git and node in its workspace, and its output is captured", async () => {
    const r = await runSandboxed(host, spec(dirs, UID, sh(SHELL_STEP)), { timeoutMs: 30_000 });
    expect(r.stderr).toBe("to-stderr\n");
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      `A\nB\n3\nfirst\nnode says 42 ${host.level === "none" ? dirs.workspace : "/workspace"}\n`,
    );
    expect(existsSync(path.join(dirs.workspace, "repo/.git/HEAD"))).toBe(true);
    const s = await stat(path.join(dirs.workspace, "from-node.txt"));
    if (isRoot) expect(s.uid).toBe(UID);
    // the worker can still clean up what the step wrote
    await rm(path.join(dirs.workspace, "repo"), { recursive: true });
    expect(existsSync(path.join(dirs.workspace, "repo"))).toBe(false);
  });

  it("gets stdin, its caller's environment and a working folder inside the workspace", async () => {
    await mkdir(path.join(dirs.workspace, "sub"), { recursive: true });
    const ok = await runSandboxed(
      host,
      spec(dirs, UID, sh('cat; echo " $GREETING $(pwd) $HOME $TMPDIR"'), {
        env: { GREETING: "hi there" },
        cwd: "sub",
      }),
      { stdin: "from-stdin", timeoutMs: 20_000 },
    );
    expect(ok.stdout).toBe("from-stdin hi there /workspace/sub /home/step /tmp\n");
  });

  it("runs WebAssembly under the default limits (agent CLIs need it)", async () => {
    const code =
      "const m=[];for(let i=0;i<4;i++)m.push(new WebAssembly.Memory({initial:1}));console.log('wasm',m.length)";
    const r = await runSandboxed(host, spec(dirs, UID, ["node", "-e", code]));
    expect(r.stdout).toBe("wasm 4\n");
  });

  it("caps output and says it did", async () => {
    const r = await runSandboxed(
      host,
      spec(dirs, UID, sh("head -c 100000 /dev/zero | tr '\\0' x"), {
        limits: { outputBytes: 1000 },
      }),
    );
    expect(r.stdout.length).toBe(1000);
    expect(r.stdoutBytes).toBe(100_000);
    expect(r.truncated).toBe(true);
    expect(r.exitCode).toBe(0);
  });

  it("binds extra folders read-only or writable where asked", async () => {
    const extra = await makeStepDirs();
    try {
      await runSandboxed(host, spec(extra, UID, sh("echo shared > data.txt")));
      const r = await runSandboxed(
        host,
        spec(dirs, UID, sh("cat /inputs/data.txt; echo nope > /inputs/new.txt || echo read-only"), {
          binds: [{ path: extra.workspace, target: "/inputs", mode: "ro" }],
        }),
      );
      expect(r.stdout).toBe("shared\nread-only\n");
    } finally {
      await removeStepDirs(extra);
    }
  });
});

describe("the long-running form", () => {
  it("talks over stdio and stops with nothing left", async () => {
    const h = withOwner(host);
    const proc = await startSandboxed(h, spec(dirs, UID, ["/bin/cat"]));
    proc.stdin.write("ping\n");
    const [chunk] = (await once(proc.stdout, "data")) as [Buffer];
    expect(chunk.toString()).toBe("ping\n");
    expect(ownedBy(h.ownerId).length).toBeGreaterThanOrEqual(1);
    const exit = await proc.stop();
    expect(exit.level).toBe(host.level);
    expect(exit.timedOut).toBe(false);
    expect(ownedBy(h.ownerId)).toEqual([]);
  });
});

describe("levels", () => {
  it("runs at level namespaces (no uid switch) with the same confinement", async () => {
    const ns = await detectForTest(UID, "namespaces");
    expect(ns.level).toBe("namespaces");
    const own = await makeStepDirs();
    const r = await runSandboxed(
      ns,
      spec(
        own,
        UID,
        sh("id -u; ls /proc | grep -c '^[0-9]'; test -e /etc/shadow || echo no-shadow"),
      ),
    );
    const [uid, procs, shadow] = r.stdout.trim().split("\n");
    expect(uid).toBe(String(process.getuid?.()));
    expect(Number(procs)).toBeLessThanOrEqual(4);
    expect(shadow).toBe("no-shadow");
    if (isRoot) expect(ns.warnings.join(" ")).toMatch(/without a uid/);
    await removeStepDirs(own);
  });

  it("fails boot with SYSTEM.SANDBOX_UNAVAILABLE when bubblewrap is missing, rather than running unconfined", async () => {
    const scratch = await makeStepDirs();
    try {
      const error = await detectSandbox({
        mode: "auto",
        ownerId: "boot-test",
        scratchDir: scratch.root,
        probeUid: isRoot ? UID : undefined,
        tools: { bwrap: "/nonexistent/bwrap" },
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe("SYSTEM.SANDBOX_UNAVAILABLE");
    } finally {
      await removeStepDirs(scratch);
    }
  });

  it("runs at level none only when asked, and warns", async () => {
    const none = await detectForTest(UID, "none");
    expect(none.level).toBe("none");
    expect(none.warnings.join(" ")).toMatch(/unconfined/);
    const r = await runSandboxed(none, spec(dirs, UID, sh("pwd; echo $SWITCHYARD_SANDBOX_OWNER")));
    expect(r.stdout).toBe(`${dirs.workspace}\n${none.ownerId}\n`);
    expect(r.level).toBe("none");
    expect(r.warnings.join(" ")).toMatch(/unconfined/);
  });
});
