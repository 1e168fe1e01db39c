/**
 * `switchyard run` confines every step, through the real bin: the level line, the step uid,
 * what a step can and cannot see, the workspace mapping, and `--sandbox none`.
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { cliForOthers } from "@switchyard/testing/sandbox";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const bin = path.resolve(import.meta.dirname, "../bin/switchyard.mjs");
const asRoot = process.getuid?.() === 0;
const myUid = process.getuid?.() ?? 0;

let ws: string;
let flows: string;
let outside: string;

const cli = (args: string[], opts: { env?: Record<string, string>; cwd?: string } = {}) => {
  const r = spawnSync(process.execPath, [bin, ...args], {
    encoding: "utf8",
    cwd: opts.cwd ?? ws,
    env: { ...process.env, SWITCHYARD_SANDBOX: "", ...opts.env },
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

/** A one-step workflow file outside the workspace; `env` names the variables it passes. */
const flow = (command: string, env: string[] = []) => {
  const file = path.join(flows, `f${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(
    file,
    `name: f
env: [${env.join(", ")}]
states:
  initial: s
  s: { type: step, command: ${JSON.stringify(command)}, on_success: done }
  done: { type: terminal }
`,
  );
  return file;
};

beforeEach(() => {
  ws = mkdtempSync(path.join(tmpdir(), "sy-run-ws-"));
  flows = mkdtempSync(path.join(tmpdir(), "sy-run-flows-"));
  outside = mkdtempSync(path.join(tmpdir(), "sy-run-outside-"));
  writeFileSync(path.join(outside, "secret.txt"), "outside-secret-3b9f\n", { mode: 0o644 });
});
afterEach(() => {
  for (const d of [ws, flows, outside]) rmSync(d, { recursive: true, force: true });
});

describe("switchyard run in the step sandbox", () => {
  it("prints the level once at the start and runs steps as a uid of their own when root", () => {
    const r = cli(["run", flow("id -u")]);
    expect(r.code).toBe(0);
    const lines = r.err.split("\n").filter((l) => l.startsWith("sandbox: "));
    expect(lines).toHaveLength(1);
    if (asRoot) {
      expect(lines[0]).toMatch(/^sandbox: strict \(uid \d+\)$/);
      const uid = lines[0]!.match(/uid (\d+)/)![1];
      expect(r.out.trim()).toBe(uid);
      expect(r.out.trim()).not.toBe("0");
    } else {
      expect(lines[0]).toBe("sandbox: namespaces");
      expect(r.out.trim()).toBe(String(myUid));
    }
    expect(r.err.indexOf("sandbox: ")).toBeLessThan(r.err.indexOf("● run"));
  });

  it("hides files outside the workspace and the caller's environment", () => {
    const secretFile = path.join(outside, "secret.txt");
    const r = cli(
      [
        "run",
        flow(
          `cat ${secretFile} || echo no-outside; cat /etc/shadow || echo no-shadow; ls /root || echo no-root; env`,
          ["SY_PASSED"],
        ),
      ],
      { env: { SY_PASSED: "passed-value-71", SY_CALLER_ONLY: "caller-only-value-93" } },
    );
    expect(r.code).toBe(0);
    expect(r.out).not.toContain("outside-secret-3b9f");
    expect(r.out).toContain("no-outside");
    expect(r.out).toContain("no-shadow");
    expect(r.out).toContain("no-root");
    expect(r.out).toContain("SY_PASSED=passed-value-71");
    expect(r.out).not.toContain("caller-only-value-93");
    expect(r.out).not.toContain("SY_CALLER_ONLY");
  });

  it("binds the current folder as the workspace: the user's files are there and writes land there", () => {
    writeFileSync(path.join(ws, "notes.txt"), "from the user\n", { mode: 0o644 });
    mkdirSync(path.join(ws, "src"));
    writeFileSync(path.join(ws, "src/a.txt"), "a\n");
    const before = statSync(ws);
    const r = cli([
      "run",
      flow(
        "pwd; cat notes.txt src/a.txt; echo from the step >> notes.txt; mkdir -p out && echo made > out/new.txt",
      ),
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toBe("/workspace\nfrom the user\na\n");
    expect(readFileSync(path.join(ws, "notes.txt"), "utf8")).toBe("from the user\nfrom the step\n");
    expect(readFileSync(path.join(ws, "out/new.txt"), "utf8")).toBe("made\n");
    // Everything belongs to its owner again once the run is over, the folder keeps its mode.
    for (const f of [".", "notes.txt", "src", "src/a.txt", "out", "out/new.txt"])
      expect(statSync(path.join(ws, f)).uid).toBe(myUid);
    expect(statSync(ws).mode).toBe(before.mode);
  });

  it("takes another folder with --workspace and refuses a step dir outside it", () => {
    writeFileSync(path.join(ws, "there.txt"), "in the workspace\n");
    const r = cli(["run", flow("cat there.txt; echo ok > w.txt"), "--workspace", ws], {
      cwd: outside,
    });
    expect(r.code).toBe(0);
    expect(r.out).toBe("in the workspace\n");
    expect(readFileSync(path.join(ws, "w.txt"), "utf8")).toBe("ok\n");
    const file = path.join(flows, "dir.yaml");
    writeFileSync(
      file,
      `name: d\nstates:\n  initial: s\n  s: { type: step, command: pwd, dir: ${outside}, on_success: done }\n  done: { type: terminal }\n`,
    );
    const refused = cli(["run", file]);
    expect(refused.code).not.toBe(0);
    expect(refused.err).toContain("outside the workspace");
  });

  it("shares the network unless --no-network is given", async () => {
    const server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      // The kernel completes the connection from its backlog while spawnSync blocks us.
      const probe = flow(`bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port}' && echo connected`);
      const shared = cli(["run", probe]);
      expect(shared.code).toBe(0);
      expect(shared.out).toBe("connected\n");
      const cut = cli(["run", probe, "--no-network"]);
      expect(cut.code).not.toBe(0);
      expect(cut.out).toBe("");
    } finally {
      server.close();
    }
  });

  it.skipIf(!asRoot)(
    "as a normal user (uid 65534, a HOME of its own) offers the network on or off only, and says it is unfiltered",
    async () => {
      const server = createServer((socket) => socket.end());
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const { port } = server.address() as AddressInfo;
      const home = mkdtempSync(path.join(tmpdir(), "sy-run-nobody-home-"));
      const own = mkdtempSync(path.join(tmpdir(), "sy-run-nobody-ws-"));
      const cliDir = mkdtempSync(path.join(tmpdir(), "sy-run-nobody-cli-"));
      const nobodyBin = cliForOthers(cliDir);
      chownSync(home, 65534, 65534);
      chownSync(own, 65534, 65534);
      try {
        const probe = flow(`bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port}' && echo connected`);
        chmodSync(flows, 0o755);
        chmodSync(probe, 0o644);
        const asNobody = (...args: string[]) => {
          const r = spawnSync(
            "setpriv",
            [
              "--reuid=65534",
              "--regid=65534",
              "--clear-groups",
              process.execPath,
              nobodyBin,
              "run",
              probe,
              ...args,
            ],
            {
              encoding: "utf8",
              cwd: own,
              env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home },
              timeout: 120_000,
            },
          );
          return { code: r.status, out: r.stdout, err: r.stderr };
        };
        const shared = asNobody();
        expect(shared.code, shared.err).toBe(0);
        expect(shared.err).toMatch(/^sandbox: namespaces$/m);
        expect(shared.err).toMatch(
          /^network: shared with this machine, unfiltered \(link-local and cloud metadata addresses are reachable too\); --no-network for none$/m,
        );
        expect(shared.out).toBe("connected\n");
        const cut = asNobody("--no-network");
        expect(cut.err).toMatch(/^network: none \(--no-network\)$/m);
        expect(cut.code).not.toBe(0);
        expect(cut.out).toBe("");
      } finally {
        server.close();
        rmSync(home, { recursive: true, force: true });
        rmSync(own, { recursive: true, force: true });
        rmSync(cliDir, { recursive: true, force: true });
      }
    },
    240_000,
  );

  it("runs unconfined with --sandbox none or SWITCHYARD_SANDBOX=none, and says so", () => {
    const secretFile = path.join(outside, "secret.txt");
    for (const [args, env] of [
      [["--sandbox", "none"], {}],
      [[], { SWITCHYARD_SANDBOX: "none" }],
    ] as const) {
      const r = cli(["run", flow(`id -u; cat ${secretFile}; pwd`), ...args], { env });
      expect(r.code).toBe(0);
      expect(r.err).toMatch(/^sandbox: NONE: steps run UNCONFINED/m);
      expect(r.out).toBe(`${myUid}\noutside-secret-3b9f\n${ws}\n`);
    }
  });

  it("says in --help how the workspace, the levels and the network work", () => {
    const r = cli(["run", "--help"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("bound read-write at\n    /workspace");
    expect(r.out).toMatch(/--sandbox.*auto\|strict\|namespaces\|none/);
    expect(r.out).toContain("--no-network");
  });

  it.skipIf(!asRoot)(
    "gives the workspace back only once every step ended, never following a swapped entry",
    () => {
      // A root-owned file outside that the racer keeps pointing symlinks at.
      const canary = path.join(outside, "secret.txt");
      writeFileSync(
        path.join(ws, "race.pl"),
        `while (1) {
           for my $i (1..60) { open(my $f, ">", "n$i"); close $f; chmod 04755, "n$i"; rename "n$i", "s$i"; }
           for my $i (1..60) { symlink ${JSON.stringify(canary)}, "l$i"; rename "l$i", "s$i"; }
         }\n`,
      );
      // A NUL byte in a value makes the sandbox refuse the failer's process: an engine error,
      // raised while its sibling races.
      const file = path.join(flows, "race.yaml");
      writeFileSync(
        file,
        `name: race
states:
  initial: mk
  mk:
    type: step
    command: printf 'a\\000b'
    capture: { stdout: nul }
    on_success: fan
  fan: { type: parallel, parallel: [racer, failer], on_success: done, on_failure: failed }
  racer: { type: step, command: "perl race.pl" }
  failer:
    type: step
    hooks: { pre: [{ command: "sleep 1" }] }
    command: 'echo "{{.context.nul}}"'
  done: { type: terminal }
  failed: { type: terminal, status: failure }
`,
      );
      for (let round = 0; round < 3; round++) {
        const r = spawnSync(process.execPath, [bin, "run", file], {
          encoding: "utf8",
          cwd: ws,
          env: { ...process.env, SWITCHYARD_SANDBOX: "" },
          timeout: 60_000,
        });
        expect(r.stderr).toContain("SYSTEM.SANDBOX_INVALID_SPEC");
        expect(r.status).toBe(4);
        expect(statSync(canary).mode & 0o7777).toBe(0o644);
        expect(readFileSync(canary, "utf8")).toBe("outside-secret-3b9f\n");
        // Every entry is the caller's again, and nothing the step left keeps a set-uid bit.
        for (const name of readdirSync(ws)) {
          const s = lstatSync(path.join(ws, name));
          expect([name, s.uid]).toEqual([name, myUid]);
          expect([name, s.mode & 0o6000]).toEqual([name, 0]);
        }
      }
    },
    300_000,
  );

  it("rejects an unknown level and leaves no temp folder behind", () => {
    const bad = cli(["run", flow("true"), "--sandbox", "sometimes"]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain("--sandbox must be one of auto, strict, namespaces, none");
    const scratch = mkdtempSync(path.join(tmpdir(), "sy-run-tmp-"));
    chmodSync(scratch, 0o711);
    try {
      const r = cli(["run", flow("echo hi > $TMPDIR/x; echo hi > $HOME/y")], {
        env: { TMPDIR: scratch },
      });
      expect(r.code).toBe(0);
      expect(readdirSync(scratch).filter((n) => n.startsWith("switchyard-"))).toEqual([]);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
