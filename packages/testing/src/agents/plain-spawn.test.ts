import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { plainSpawn, procStat } from "./plain-spawn";

/** A stand-in CLI: two children in its group (one cleans up for 300 ms on SIGTERM, one ignores it), then it waits. */
const CLI = `
const { spawn } = require("node:child_process");
const dir = process.argv[1];
const child = (name, onTerm) =>
  spawn(process.execPath, ["-e", \`
    const fs = require("node:fs");
    process.on("SIGTERM", () => { \${onTerm} });
    fs.writeFileSync(\${JSON.stringify(dir)} + "/\${name}", String(process.pid));
    setInterval(() => {}, 1000);\`], { stdio: "ignore" });
child("slow", 'setTimeout(() => { fs.writeFileSync(' + JSON.stringify(dir + "/cleaned") + ', "yes"); process.exit(0); }, 300);');
child("stubborn", "");
if (process.argv[2] === "exit") setTimeout(() => process.exit(0), 500);
else setInterval(() => {}, 1000);
`;

const alive = (pid: number) => (procStat(pid)?.state ?? "Z") !== "Z";

const waitFor = async (check: () => boolean, ms = 10_000) => {
  for (const end = Date.now() + ms; !check(); await new Promise((r) => setTimeout(r, 25)))
    if (Date.now() > end) throw new Error("timed out waiting");
};

let dir: string;
afterEach(() => {
  for (const name of ["slow", "stubborn"]) {
    const file = path.join(dir, name);
    if (existsSync(file)) {
      try {
        process.kill(Number(readFileSync(file, "utf8")), "SIGKILL");
      } catch {
        // gone
      }
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

const start = async (mode: "wait" | "exit") => {
  dir = mkdtempSync(path.join(tmpdir(), "plain-spawn-"));
  const proc = await plainSpawn({ cwd: dir, killGraceMs: 1500 })({
    argv: [process.execPath, "-e", CLI, dir, mode],
    env: { PATH: "/usr/bin:/bin" },
  });
  proc.stdout.resume();
  proc.stderr.resume();
  await waitFor(() => existsSync(path.join(dir, "slow")) && existsSync(path.join(dir, "stubborn")));
  const pids = ["slow", "stubborn"].map((n) => Number(readFileSync(path.join(dir, n), "utf8")));
  return { proc, pids };
};

describe("plainSpawn", () => {
  it("stops the CLI's group as the product does: what outlives the CLI still gets its SIGTERM grace, and what ignores SIGTERM is killed at its end", async () => {
    const { proc, pids } = await start("wait");
    const stopping = Date.now();
    const exit = await proc.stop();
    expect(exit).toEqual({ exitCode: null, signal: "SIGTERM" });
    expect(existsSync(path.join(dir, "cleaned"))).toBe(true);
    expect(pids.filter(alive)).toEqual([]);
    expect(Date.now() - stopping).toBeGreaterThanOrEqual(1000);
  });

  it("stops what a CLI that exits by itself leaves in its group, the same way, before it counts as exited", async () => {
    const { proc, pids } = await start("exit");
    const exit = await proc.exited;
    expect(exit).toEqual({ exitCode: 0, signal: null });
    expect(existsSync(path.join(dir, "cleaned"))).toBe(true);
    expect(pids.filter(alive)).toEqual([]);
  });
});
