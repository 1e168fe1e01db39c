/**
 * The boot self-test: finds the strongest level that works on this machine by starting a
 * real probe at each candidate level and checking what it sees (its uid, the processes
 * in /proc, no /etc/shadow, no host loopback, a writable workspace). `none` is only ever
 * chosen when it is configured explicitly, and then it says so loudly.
 */
import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import path from "node:path";
import { AppError } from "../errors";
import { makeStepFolders } from "./make-step-folders";
import { runSandboxed } from "./run-sandboxed";
import {
  DEFAULT_TOOLS,
  type SandboxHost,
  type SandboxLevel,
  type SandboxTools,
} from "./sandbox-types";

export type DetectSandboxOptions = {
  /** `auto` picks `strict` when root (with a probe uid), else `namespaces`; never `none`. */
  mode: "auto" | SandboxLevel;
  ownerId: string;
  /** A folder for the probe's private folders; must be traversable by `probeUid`. */
  scratchDir: string;
  /** A step uid to probe `strict` with (e.g. the first slot uid). */
  probeUid?: number;
  tools?: Partial<SandboxTools>;
  /** The Node.js binary steps may run; defaults to the worker's own. */
  nodeExecPath?: string;
};

type SandboxAttempt = { level: SandboxLevel; ok: boolean; reason?: string; ms: number };

const SYSTEM_CANDIDATES = [
  "/usr",
  "/etc/alternatives",
  "/etc/ssl",
  "/etc/ca-certificates",
  "/etc/ca-certificates.conf",
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/localtime",
  "/etc/nsswitch.conf",
  "/etc/hosts",
  "/etc/host.conf",
  "/etc/resolv.conf",
  "/etc/gai.conf",
  "/etc/protocols",
  "/etc/services",
  "/etc/mime.types",
];
const ROOT_ENTRIES = ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];
const PLAIN_PATH = ["/usr/local/bin", "/usr/bin", "/bin"];

const exists = (p: string) => {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
};

/** The minimal read-only root: system folders, root symlinks, the Node.js install. */
const describeHostRoot = (nodeExecPath: string) => {
  const systemPaths = SYSTEM_CANDIDATES.filter(exists);
  const rootSymlinks: SandboxHost["rootSymlinks"] = [];
  for (const entry of ROOT_ENTRIES.filter(exists)) {
    if (lstatSync(entry).isSymbolicLink())
      rootSymlinks.push({ target: readlinkSync(entry), path: entry });
    else systemPaths.push(entry);
  }
  const node = realpathSync(nodeExecPath);
  const prefix = path.dirname(path.dirname(node));
  const covered = (p: string) => systemPaths.some((s) => p === s || p.startsWith(`${s}/`));
  if (!covered(node)) systemPaths.push(prefix);
  const nodeBin = path.dirname(nodeExecPath);
  const extraPath = PLAIN_PATH.includes(nodeBin) ? [] : [nodeBin];
  return { systemPaths, rootSymlinks, extraPath };
};

const probeScript = (loopbackPort: number) =>
  [
    "id -u",
    "n=0; for p in /proc/[0-9]*; do n=$((n+1)); done; echo procs=$n",
    "if [ -e /etc/shadow ]; then echo shadow-visible; fi",
    `if (exec 3<>/dev/tcp/127.0.0.1/${loopbackPort}) 2>/dev/null; then echo loopback-reachable; fi`,
    "echo ok > probe && echo wrote",
  ].join("; ");

/** A listener on the host's loopback that a probe without network must not reach. */
const withLoopbackListener = async <T>(use: (port: number) => Promise<T>): Promise<T> => {
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  try {
    return await use((server.address() as AddressInfo).port);
  } finally {
    server.close();
  }
};

const probe = async (
  host: SandboxHost,
  scratchDir: string,
  uid: number | undefined,
): Promise<string | undefined> => {
  await mkdir(scratchDir, { recursive: true });
  const dir = await mkdtemp(path.join(scratchDir, "sandbox-probe-"));
  try {
    const { workspace, home, tmp } = await makeStepFolders(dir);
    const r = await withLoopbackListener((port) =>
      runSandboxed(
        host,
        {
          argv: [host.tools.bash, "-c", probeScript(port)],
          workspace,
          home,
          tmp,
          network: false,
          uid,
          killGraceMs: 1000,
        },
        { timeoutMs: 15_000 },
      ),
    );
    const lines = r.stdout.trim().split("\n");
    if (r.exitCode !== 0)
      return `probe exited ${r.exitCode ?? r.signal}: ${r.stderr.trim().slice(0, 500)}`;
    if (!lines.includes("wrote")) return "probe could not write its workspace";
    switch (host.level) {
      case "strict":
        if (lines[0] !== String(uid)) return `probe ran as uid ${lines[0]}, expected ${uid}`;
        break;
      case "namespaces":
      case "none":
        break;
    }
    if (host.level !== "none") {
      if (lines.includes("shadow-visible")) return "probe sees /etc/shadow";
      if (lines.includes("loopback-reachable")) return "probe reaches the host's loopback";
      const procs = Number(/procs=(\d+)/.exec(r.stdout)?.[1] ?? "999");
      if (procs > 4) return `probe sees ${procs} processes`;
    }
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

/** The strongest sandbox level that works here, with the attempts made to find it. */
export const detectSandbox = async (
  options: DetectSandboxOptions,
): Promise<SandboxHost & { attempts: SandboxAttempt[] }> => {
  const isRoot = process.getuid?.() === 0;
  const tools = { ...DEFAULT_TOOLS, ...options.tools };
  const root = describeHostRoot(options.nodeExecPath ?? process.execPath);
  const base = { ownerId: options.ownerId, tools, isRoot, ...root };
  const candidates: SandboxLevel[] =
    options.mode === "auto"
      ? isRoot && options.probeUid !== undefined
        ? ["strict", "namespaces"]
        : ["namespaces"]
      : [options.mode];
  const attempts: SandboxAttempt[] = [];
  for (const level of candidates) {
    const warnings: string[] = [];
    if (level === "none") {
      warnings.push(
        "SANDBOX LEVEL none: step processes run unconfined, as the worker's own user, and can read its files",
      );
    }
    if (level === "namespaces" && isRoot) {
      warnings.push(
        "sandbox level namespaces as root: steps run without a uid of their own (configure step uids for strict)",
      );
    }
    const host: SandboxHost = { ...base, level, warnings };
    const started = performance.now();
    const reason =
      level === "strict" && options.probeUid === undefined
        ? "strict needs a probe uid"
        : await probe(host, options.scratchDir, options.probeUid);
    attempts.push({
      level,
      ok: reason === undefined,
      reason,
      ms: Math.round(performance.now() - started),
    });
    if (reason === undefined) return { ...host, attempts };
  }
  throw new AppError(
    "SYSTEM.SANDBOX_UNAVAILABLE",
    `no sandbox level works here: ${attempts.map((a) => `${a.level}: ${a.reason ?? "ok"}`).join("; ")}`,
    { userMessage: "The step sandbox is unavailable on this worker (is bubblewrap installed?)" },
  );
};
