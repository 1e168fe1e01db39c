import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { buildLaunch, OWNER_TAG, SANDBOX_TAG } from "./build-launch";
import { DEFAULT_TOOLS, type SandboxHost, type SandboxSpec } from "./sandbox-types";

const host = (level: SandboxHost["level"]): SandboxHost => ({
  level,
  ownerId: "owner-1",
  tools: DEFAULT_TOOLS,
  isRoot: true,
  systemPaths: ["/usr", "/etc/ssl"],
  rootSymlinks: [{ target: "usr/bin", path: "/bin" }],
  extraPath: ["/opt/node/bin"],
  warnings: [],
});
const spec: SandboxSpec = {
  argv: ["/bin/sh", "-c", "true"],
  workspace: "/w/ws",
  home: "/w/home",
  tmp: "/w/tmp",
  network: false,
  uid: 61000,
  env: { TOKEN_FOR_STEP: "x", PATH: "/custom" },
};
const self = { uid: 0, gid: 0 };

describe("buildLaunch", () => {
  it("switches uid, sets limits and confines with bwrap at strict", () => {
    const l = buildLaunch(host("strict"), spec, "sbx-1", self);
    expect(l.file).toBe(DEFAULT_TOOLS.setpriv);
    expect(l.args.slice(0, 7)).toEqual([
      "--reuid=61000",
      "--regid=61000",
      "--clear-groups",
      "--no-new-privs",
      "--pdeathsig",
      "KILL",
      "--",
    ]);
    // The launcher's limits: CPU s, data KiB, file size KiB, open files, processes, no address-space cap.
    const limits = l.args.indexOf("launcher") + 1;
    expect(l.args.slice(limits, limits + 7)).toEqual([
      "3600",
      "8388608",
      "2097152",
      "4096",
      "1024",
      "",
      "6",
    ]);
    expect(l.args.slice(-7)).toEqual([
      DEFAULT_TOOLS.bwrap,
      "--args",
      "6",
      "--",
      "/bin/sh",
      "-c",
      "true",
    ]);
    const options = (l.files?.args ?? "").split("\0");
    for (const flag of [
      "--unshare-user",
      "--unshare-pid",
      "--unshare-ipc",
      "--unshare-uts",
      "--unshare-net",
      "--disable-userns",
      "--die-with-parent",
      "--new-session",
      "--clearenv",
    ]) {
      expect(options).toContain(flag);
    }
    const bindOf = (dest: string) => options[options.indexOf(dest) - 1];
    expect(bindOf("/workspace")).toBe("/w/ws");
    expect(bindOf("/home/step")).toBe("/w/home");
    const stepEnv: Record<string, string> = {};
    options.forEach((a, i) => {
      if (a === "--setenv") stepEnv[options[i + 1]!] = options[i + 2]!;
    });
    expect(stepEnv).toEqual({
      PATH: "/custom",
      LANG: "C.UTF-8",
      USER: "step",
      LOGNAME: "step",
      SHELL: "/bin/sh",
      TOKEN_FOR_STEP: "x",
      HOME: "/home/step",
      TMPDIR: "/tmp",
      [OWNER_TAG]: "owner-1",
      [SANDBOX_TAG]: "sbx-1",
    });
    // the launcher chain runs with a fixed environment: nothing of the step's reaches setpriv
    expect(l.env).toEqual({
      PATH: "/usr/sbin:/usr/bin:/sbin:/bin",
      [OWNER_TAG]: "owner-1",
      [SANDBOX_TAG]: "sbx-1",
    });
    expect(l.args.join(" ")).not.toContain("TOKEN_FOR_STEP");
    expect(l.files?.passwd).toContain("step:x:61000:61000:");
  });

  it("keeps the network only when asked", () => {
    expect(
      buildLaunch(host("strict"), { ...spec, network: true }, "s", self).files?.args,
    ).not.toContain("--unshare-net");
  });

  it("needs an unprivileged uid at strict, none at namespaces", () => {
    expect(() => buildLaunch(host("strict"), { ...spec, uid: undefined }, "s", self)).toThrow(
      AppError,
    );
    expect(() => buildLaunch(host("strict"), { ...spec, uid: 0 }, "s", self)).toThrow(
      /unprivileged/,
    );
    const ns = buildLaunch(host("namespaces"), { ...spec, uid: undefined }, "s", {
      uid: 1000,
      gid: 1000,
    });
    expect(ns.args[0]).toBe("--no-new-privs");
    expect(ns.files?.passwd).toContain("step:x:1000:1000:");
  });

  it("runs the command directly, tagged, at level none", () => {
    const l = buildLaunch(host("none"), { ...spec, cwd: "sub" }, "s", self);
    expect(l.args).not.toContain(DEFAULT_TOOLS.bwrap);
    expect(l.cwd).toBe("/w/ws/sub");
    expect(l.env.HOME).toBe("/w/home");
    expect(l.env[OWNER_TAG]).toBe("owner-1");
  });

  it("refuses a cwd outside the workspace, reserved or malformed variables", () => {
    expect(() => buildLaunch(host("strict"), { ...spec, cwd: "../.." }, "s", self)).toThrow(
      /leaves the workspace/,
    );
    expect(() =>
      buildLaunch(host("strict"), { ...spec, env: { [OWNER_TAG]: "x" } }, "s", self),
    ).toThrow(/reserved/);
    expect(() => buildLaunch(host("strict"), { ...spec, env: { "A=B": "x" } }, "s", self)).toThrow(
      /invalid/,
    );
    expect(() => buildLaunch(host("strict"), { ...spec, argv: [] }, "s", self)).toThrow(
      /empty argv/,
    );
  });
});

describe("the descriptor-closing launcher", () => {
  it("never reads a start-up file, even with a socket for stdin (bash would then read ~/.bashrc)", async () => {
    const { mkdtemp, writeFile, rm } = await import("node:fs/promises");
    const { existsSync } = await import("node:fs");
    const { spawn } = await import("node:child_process");
    const os = await import("node:os");
    const path = await import("node:path");
    const home = await mkdtemp(path.join(os.tmpdir(), "sy-rc-"));
    try {
      const marker = path.join(home, "sourced");
      await writeFile(path.join(home, ".bashrc"), `echo sourced > ${marker}\n`);
      await writeFile(path.join(home, ".bash_profile"), `echo sourced > ${marker}\n`);
      const l = buildLaunch(
        host("none"),
        { ...spec, home, tmp: home, workspace: home, argv: ["/bin/true"] },
        "sbx-rc",
        self,
      );
      // Node's "pipe" stdio is a socket pair: the case in which Debian's bash sources ~/.bashrc.
      const child = spawn(l.file, l.args, {
        env: l.env,
        cwd: home,
        stdio: ["pipe", "pipe", "pipe"],
      });
      child.stdin.end();
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      expect(code).toBe(0);
      expect(existsSync(marker)).toBe(false);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});

describe("the launcher's limits", () => {
  const runNone = async (limits: SandboxSpec["limits"], script: string) => {
    const { mkdtemp, rm } = await import("node:fs/promises");
    const { spawn } = await import("node:child_process");
    const os = await import("node:os");
    const path = await import("node:path");
    const dir = await mkdtemp(path.join(os.tmpdir(), "sy-lim-"));
    try {
      const l = buildLaunch(
        host("none"),
        {
          ...spec,
          home: dir,
          tmp: dir,
          workspace: dir,
          uid: undefined,
          limits,
          argv: ["/bin/bash", "-c", script],
        },
        "sbx-lim",
        self,
      );
      const child = spawn(l.file, l.args, {
        env: l.env,
        cwd: dir,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      child.stdout.on("data", (c: Buffer) => (out += c.toString()));
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      return { code, out };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };

  it("applies every limit, soft and hard, to the command", async () => {
    const r = await runNone(
      {
        cpuSeconds: 77,
        dataBytes: 900 * 1024 * 1024,
        fileSizeBytes: 3 * 1024 * 1024,
        openFiles: 333,
        processes: 444,
        addressSpaceBytes: 5 * 1024 ** 3,
      },
      "/bin/cat /proc/self/limits",
    );
    expect(r.code).toBe(0);
    const row = (name: string) =>
      r.out
        .split("\n")
        .find((line) => line.startsWith(name))
        ?.split(/\s{2,}/)
        .slice(1, 3);
    expect(row("Max cpu time")).toEqual(["77", "77"]);
    expect(row("Max data size")).toEqual([String(900 * 1024 * 1024), String(900 * 1024 * 1024)]);
    expect(row("Max file size")).toEqual([String(3 * 1024 * 1024), String(3 * 1024 * 1024)]);
    expect(row("Max open files")).toEqual(["333", "333"]);
    expect(row("Max processes")).toEqual(["444", "444"]);
    expect(row("Max address space")).toEqual([String(5 * 1024 ** 3), String(5 * 1024 ** 3)]);
  });

  it("does not start the command when a limit cannot be set", async () => {
    // Past the kernel's nr_open: refused even to root.
    const r = await runNone({ openFiles: 2 ** 40 }, "echo started");
    expect(r.code).toBe(126);
    expect(r.out).not.toContain("started");
  });
});
