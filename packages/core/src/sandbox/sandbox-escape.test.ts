/**
 * The escape corpus: each case is something a hostile step would try, run as a real
 * process in the sandbox the worker uses, and each asserts the attempt fails or sees
 * nothing. Stopping and leftovers are in sandbox-stop.test.ts.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSandboxed } from "./run-sandboxed";
import type { SandboxHost } from "./sandbox-types";
import {
  detectForTest,
  HOLD_STEP,
  isRoot,
  makeStepDirs,
  removeStepDirs,
  sh,
  spec,
  type StepDirs,
} from "@switchyard/testing/sandbox";

const UID = 61100;
const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(HERE, "../../../..");
const SYS_PTRACE = process.arch === "arm64" ? 117 : 101;
const SECRET = `sekrit-${randomBytes(8).toString("hex")}`;

let host: SandboxHost;
let dirs: StepDirs;
let other: StepDirs;

beforeAll(async () => {
  process.env.SWITCHYARD_TEST_SECRET = SECRET;
  host = await detectForTest(UID);
  dirs = await makeStepDirs();
  other = await makeStepDirs();
  writeFileSync(path.join(other.workspace, "secret.txt"), SECRET);
});
afterAll(async () => {
  delete process.env.SWITCHYARD_TEST_SECRET;
  await removeStepDirs(dirs);
  await removeStepDirs(other);
});

const run = (script: string, extra = {}) =>
  runSandboxed(host, spec(dirs, UID, sh(script), extra), { timeoutMs: 20_000 });

describe("the step sandbox", () => {
  it("runs at level strict on this machine when the worker is root", () => {
    expect(host.level).toBe(isRoot ? "strict" : "namespaces");
  });

  it("cannot read the worker's environment, neither its own nor through /proc", async () => {
    const r = await run(
      `env; cat /proc/${process.pid}/environ; for f in /proc/[0-9]*/environ; do cat "$f"; echo; done; echo done`,
    );
    expect(r.stdout).toContain("done");
    expect(r.stdout).toContain("SWITCHYARD_SANDBOX_ID=");
    expect(r.stdout).not.toContain(SECRET);
    expect(r.stdout).not.toMatch(/DATABASE_URL|REDIS_URL|SWITCHYARD_MASTER_KEY/);
    expect(r.stderr).toMatch(new RegExp(`/proc/${process.pid}/environ: No such file`));
  });

  it("sees no process outside the sandbox and cannot signal or ptrace one", async () => {
    const victim = spawn("/bin/sleep", ["30"], { stdio: "ignore" });
    try {
      const pid = victim.pid!;
      const r = await run(
        [
          "ls /proc | grep -c '^[0-9]'",
          `test -e /proc/${pid} && echo visible`,
          `kill -9 ${pid} && echo killed`,
          `kill -9 ${process.pid} && echo killed-worker`,
          // ptrace(PTRACE_ATTACH = 16) through perl's raw syscall
          `perl -e 'my $r = syscall(${SYS_PTRACE}, 16, ${pid}, 0, 0); print "ptrace=$r errno=", $!+0, "\\n"'`,
        ].join("; "),
      );
      const count = Number(r.stdout.split("\n")[0]);
      expect(count).toBeGreaterThan(0);
      expect(count).toBeLessThanOrEqual(4);
      expect(r.stdout).not.toMatch(/visible|killed/);
      expect(r.stdout).toMatch(/ptrace=-1 errno=3\b/); // ESRCH: no such process in here
      expect(victim.exitCode).toBeNull();
      expect(victim.signalCode).toBeNull();
    } finally {
      victim.kill("SIGKILL");
    }
  });

  it("cannot read the project's .env, /etc/shadow, another workspace or any path outside its binds", async () => {
    const envFile = path.join(REPO_ROOT, ".env");
    const r = await run(
      [
        `cat ${envFile} && echo read-env`,
        `ls ${REPO_ROOT} && echo listed-repo`,
        "cat /etc/shadow && echo read-shadow",
        `cat ${other.workspace}/secret.txt && echo read-other`,
        `ls ${other.root} && echo listed-other`,
        "ls /root && echo listed-root",
        "ls /run /var /sys 2>/dev/null && echo listed-system",
        "ls /etc",
      ].join("; "),
    );
    expect(r.stdout).not.toMatch(
      /read-env|listed-repo|read-shadow|read-other|listed-other|listed-root|listed-system/,
    );
    expect(r.stdout).not.toContain(SECRET);
    expect(r.stdout).not.toMatch(/^shadow$|^gshadow$|^sudoers$/m);
    expect(r.stdout).toMatch(/^passwd$/m);
  });

  it("cannot write outside its workspace, HOME and /tmp", async () => {
    const marker = `escape-${randomBytes(4).toString("hex")}`;
    const targets = ["/", "/usr", "/usr/bin", "/etc", "/home", "/dev", "/proc", dirs.root];
    const r = await run(
      [
        ...targets.map((t) => `touch ${t}/${marker} 2>/dev/null && echo wrote:${t}`),
        `echo ok > /workspace/${marker} && echo wrote:workspace`,
        `echo ok > $HOME/${marker} && echo wrote:home`,
        `echo ok > /tmp/${marker} && echo wrote:tmp`,
        `echo ok > /dev/shm/${marker} && echo wrote:shm`,
      ].join("; "),
    );
    expect(r.stdout.trim().split("\n").sort()).toEqual([
      "wrote:home",
      "wrote:shm",
      "wrote:tmp",
      "wrote:workspace",
    ]);
    for (const t of ["/", "/usr", "/usr/bin", "/etc", "/home", "/dev", "/dev/shm", dirs.root])
      expect(existsSync(path.join(t, marker))).toBe(false);
    expect(existsSync(path.join(dirs.workspace, marker))).toBe(true);
    expect(existsSync(path.join(dirs.home, marker))).toBe(true);
    expect(existsSync(path.join(dirs.tmp, marker))).toBe(true);
  });

  it("cannot reach /etc/shadow or another workspace through a hard link or a symlink", async () => {
    const r = await run(
      [
        "ln /etc/shadow hard-shadow && echo linked-shadow",
        `ln ${other.workspace}/secret.txt hard-other && echo linked-other`,
        "ln -s /etc/shadow soft-shadow; cat soft-shadow && echo read-soft-shadow",
        `ln -s ${other.workspace}/secret.txt soft-other; cat soft-other && echo read-soft-other`,
        `ln -s ${other.workspace} soft-dir; ls soft-dir/ && echo listed-soft-dir`,
      ].join("; "),
    );
    expect(r.stdout).not.toMatch(/linked-shadow|linked-other|read-soft|listed-soft-dir/);
    expect(r.stdout).not.toContain(SECRET);
    expect(existsSync(path.join(dirs.workspace, "hard-shadow"))).toBe(false);
    expect(existsSync(path.join(dirs.workspace, "hard-other"))).toBe(false);
  });

  describe("with network: false", () => {
    let server: Server;
    let port: number;
    beforeAll(async () => {
      server = createServer((socket) => socket.end("hello-from-host\n"));
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      port = (server.address() as { port: number }).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const connect = (p: number) =>
      `node -e 'const s=require("net").connect(${p},"127.0.0.1");s.on("data",d=>{process.stdout.write("got:"+d);process.exit(0)});s.on("error",e=>{console.log("error:"+e.code);process.exit(1)})'`;

    it("cannot connect to a service on the host's loopback", async () => {
      const r = await run(connect(port));
      expect(r.stdout).not.toContain("hello-from-host");
      expect(r.stdout).toMatch(/error:ECONNREFUSED/);
    });

    it("can when the step is given the network (the control case)", async () => {
      const r = await run(connect(port), { network: true });
      expect(r.stdout).toContain("got:hello-from-host");
    });
  });

  it("cannot grow a file past the file-size limit", async () => {
    const limit = 1024 * 1024;
    const r = await run("head -c 8000000 /dev/zero > big; echo rc=$?; ls -l big", {
      limits: { fileSizeBytes: limit },
    });
    expect(r.stdout).not.toContain("rc=0");
    expect(statSync(path.join(dirs.workspace, "big")).size).toBeLessThanOrEqual(limit);
  });

  it("cannot use a descriptor the worker inherited from its own parent", async () => {
    const secretFile = path.join(other.root, "inherited.txt");
    writeFileSync(secretFile, SECRET);
    const script = "ls /proc/self/fd | tr '\\n' ' '; echo; cat <&300; echo end";
    const arg = JSON.stringify({ host, spec: spec(dirs, UID, ["/bin/bash", "-c", script]) });
    // The stand-in worker starts holding the secret open as descriptor 300, without close-on-exec.
    const driver = spawn(
      "/bin/bash",
      [
        "-c",
        'exec 300<"$0"; exec "$@"',
        secretFile,
        process.execPath,
        "--import",
        "tsx",
        HOLD_STEP,
        arg,
      ],
      { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    driver.stdout.on("data", (c: Buffer) => (out += c.toString()));
    await once(driver, "exit");
    expect(out).toContain("end");
    expect(out).not.toContain(SECRET);
    expect(out.split("\n")[0]?.trim().split(" ").sort()).toEqual(["0", "1", "2", "3"]); // 3: ls's own listing
  });

  it("cannot steer the launcher outside the sandbox through its variables", async () => {
    // With the step's variables, the dynamic loader of the launcher (setpriv runs as root)
    // would write its debug log wherever LD_DEBUG_OUTPUT points, and LD_PRELOAD would load code.
    const drop = path.join(other.root, "drop");
    mkdirSync(drop, { recursive: true, mode: 0o755 });
    const r = await run("echo ran", {
      env: {
        LD_DEBUG: "files",
        LD_DEBUG_OUTPUT: path.join(drop, "ld"),
        LD_PRELOAD: path.join(drop, "missing.so"),
        BASH_ENV: path.join(drop, "evil.sh"),
      },
    });
    expect(r.stdout).toContain("ran");
    // (the step's own shell still gets them, and finds no such paths inside)
    expect(readdirSync(drop)).toEqual([]);
  });

  it("cannot take more memory than its data limit", async () => {
    const hog =
      "const a=[];try{for(let i=0;i<64;i++)a.push(Buffer.alloc(64*1024*1024,1))}catch(e){console.log('stopped at',a.length*64)}";
    const r = await run(`node -e "${hog}"`, { limits: { dataBytes: 512 * 1024 * 1024 } });
    const mib = Number(/stopped at (\d+)/.exec(r.stdout)?.[1] ?? "99999");
    expect(mib).toBeLessThan(512);
  });

  it("cannot create user namespaces of its own", async () => {
    const r = await run("unshare --user --map-root-user id && echo nested");
    expect(r.stdout).not.toContain("nested");
  });
});
