/**
 * Turns a sandbox spec into the exact argument list that starts it: `setpriv` (uid switch,
 * no new privileges, parent-death signal), a bash launcher (limits, closing inherited
 * descriptors), then `bwrap` (namespaces, a read-only minimal root, the private folders).
 * Pure, so the policy can be read and tested without starting anything.
 */
import path from "node:path";
import { AppError } from "../errors";
import { bwrapOptions, FD } from "./bwrap-options";
import {
  DEFAULT_LIMITS,
  SANDBOX_PATHS,
  type SandboxHost,
  type SandboxLimits,
  type SandboxSpec,
} from "./sandbox-types";

/** The environment variable that tags a sandboxed process with its owner id. */
export const OWNER_TAG = "SWITCHYARD_SANDBOX_OWNER";
/** The environment variable that tags a sandboxed process with its sandbox id. */
export const SANDBOX_TAG = "SWITCHYARD_SANDBOX_ID";

export { FD } from "./bwrap-options";

const LAUNCHER_PATH = "/usr/sbin:/usr/bin:/sbin:/bin";

type Launch = {
  file: string;
  args: string[];
  env: Record<string, string>;
  /** Host folder the launcher starts in. */
  cwd: string;
  /** Contents written to FD.passwd, FD.group and FD.args; absent at level `none`. */
  files?: { passwd: string; group: string; args: string };
  /** Paths the step sees for its private folders. */
  paths: { workspace: string; home: string; tmp: string; cwd: string };
};

/**
 * The launcher between setpriv and the command, one bash with builtins only (no fork, no
 * exec but the last): sets the limits, soft and hard, as the step uid (`ulimit`, $1-$6:
 * CPU seconds, data KiB, file size KiB, open files, processes, address space KiB or empty);
 * refuses to go on if one cannot be set; closes every descriptor above `$7` (Node passes on
 * descriptors the worker itself inherited, which lack close-on-exec, and none of them may
 * reach a step); then execs the rest. Doing the limits here rather than with `prlimit`
 * saves an exec per step.
 */
const LAUNCHER = [
  'ulimit -t "$1" -d "$2" -f "$3" -n "$4" -u "$5" || exit 126',
  'if [ -n "$6" ]; then ulimit -v "$6" || exit 126; fi',
  "max=$7; shift 7",
  'for f in /proc/$$/fd/*; do n=${f##*/}; if [ "$n" -gt "$max" ]; then eval "exec $n>&-"; fi; done',
  'exec "$@"',
].join("; ");

// --norc --noprofile: with a socket for stdin (Node's pipes are socket pairs) Debian's bash
// takes itself for a remote shell and would source ~/.bashrc, whoever's HOME that is.
// Not in POSIX mode (the launcher's environment is fixed), so ulimit counts in KiB.
const launcher = (host: SandboxHost, limits: SandboxLimits | undefined, keep: number) => [
  host.tools.bash,
  "--norc",
  "--noprofile",
  "-c",
  LAUNCHER,
  "launcher",
  ...limitArgs(limits),
  String(keep),
];

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const fail = (message: string) => new AppError("SYSTEM.SANDBOX_INVALID_SPEC", message);

const insideCwd = (root: string, cwd: string | undefined): string => {
  const rel = cwd ?? ".";
  const joined = path.posix.normalize(path.posix.join(root, rel));
  if (joined !== root && !joined.startsWith(`${root}/`))
    throw fail(`cwd ${rel} leaves the workspace`);
  return joined;
};

const stepEnv = (
  host: SandboxHost,
  spec: Pick<SandboxSpec, "env">,
  sandboxId: string,
  home: string,
  tmp: string,
): Record<string, string> => {
  const base: Record<string, string> = {
    PATH: [...host.extraPath, "/usr/local/bin", "/usr/bin", "/bin"].join(":"),
    LANG: "C.UTF-8",
    USER: "step",
    LOGNAME: "step",
    SHELL: "/bin/sh",
  };
  for (const [key, value] of Object.entries(spec.env ?? {})) {
    if (!ENV_NAME.test(key)) throw fail(`invalid environment variable name ${JSON.stringify(key)}`);
    if (value.includes("\0")) throw fail(`environment variable ${key} contains a NUL byte`);
    if (key === OWNER_TAG || key === SANDBOX_TAG) throw fail(`${key} is reserved`);
    base[key] = value;
  }
  return { ...base, HOME: home, TMPDIR: tmp, [OWNER_TAG]: host.ownerId, [SANDBOX_TAG]: sandboxId };
};

/** The launcher's $1-$6; byte limits in whole KiB, rounded down (never looser than asked). */
const limitArgs = (limits: SandboxLimits | undefined): string[] => {
  const l = { ...DEFAULT_LIMITS, ...limits };
  const n = (v: number) => String(Math.max(0, Math.floor(v)));
  const kib = (v: number) => n(v / 1024);
  return [
    n(l.cpuSeconds),
    kib(l.dataBytes),
    kib(l.fileSizeBytes),
    n(l.openFiles),
    n(l.processes),
    l.addressSpaceBytes === undefined ? "" : kib(l.addressSpaceBytes),
  ];
};

const passwdFiles = (uid: number, gid: number) => {
  const users = new Map<number, string>([
    [uid, `step:x:${uid}:${gid}:step:${SANDBOX_PATHS.home}:/bin/sh`],
  ]);
  if (!users.has(0)) users.set(0, "root:x:0:0:root:/root:/usr/sbin/nologin");
  if (!users.has(65534))
    users.set(65534, "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin");
  const groups = new Map<number, string>([[gid, `step:x:${gid}:`]]);
  if (!groups.has(0)) groups.set(0, "root:x:0:");
  if (!groups.has(65534)) groups.set(65534, "nogroup:x:65534:");
  const lines = (m: Map<number, string>) => `${[...m.values()].join("\n")}\n`;
  return { passwd: lines(users), group: lines(groups) };
};

/** How to start `spec` at the host's level: the command, its arguments and environment. */
export const buildLaunch = (
  host: SandboxHost,
  spec: SandboxSpec,
  sandboxId: string,
  /** The worker's own uid/gid, used when the level keeps it. */
  self: { uid: number; gid: number },
): Launch => {
  const [command] = spec.argv;
  if (!command) throw fail("empty argv");

  switch (host.level) {
    case "none": {
      const cwd = insideCwd(path.resolve(spec.workspace), spec.cwd);
      return {
        file: host.tools.setpriv,
        args: ["--pdeathsig", "KILL", "--", ...launcher(host, spec.limits, 2), ...spec.argv],
        env: stepEnv(host, spec, sandboxId, spec.home, spec.tmp),
        cwd,
        paths: { workspace: spec.workspace, home: spec.home, tmp: spec.tmp, cwd },
      };
    }
    case "strict":
    case "namespaces": {
      const strict = host.level === "strict";
      if (strict && spec.uid === undefined) throw fail("level strict needs the step's uid");
      const uid = strict ? (spec.uid ?? -1) : self.uid;
      const gid = strict ? (spec.gid ?? uid) : self.gid;
      if (strict && (uid <= 0 || gid <= 0)) throw fail("the step uid and gid must be unprivileged");
      const cwd = insideCwd(SANDBOX_PATHS.workspace, spec.cwd);
      const setpriv = strict ? [`--reuid=${uid}`, `--regid=${gid}`, "--clear-groups"] : [];
      const env = stepEnv(host, spec, sandboxId, SANDBOX_PATHS.home, SANDBOX_PATHS.tmp);
      const options = bwrapOptions(host, spec, cwd, env);
      return {
        file: host.tools.setpriv,
        args: [
          ...setpriv,
          "--no-new-privs",
          "--pdeathsig",
          "KILL",
          "--",
          ...launcher(host, spec.limits, FD.args),
          host.tools.bwrap,
          "--args",
          String(FD.args),
          "--",
          ...spec.argv,
        ],
        // The launcher chain (setpriv runs as root) never sees the step's variables: they
        // reach only the command, through bwrap's --clearenv/--setenv in the args stream.
        env: { PATH: LAUNCHER_PATH, [OWNER_TAG]: host.ownerId, [SANDBOX_TAG]: sandboxId },
        cwd: "/",
        files: { ...passwdFiles(uid, gid), args: options.map((a) => `${a}\0`).join("") },
        paths: { ...SANDBOX_PATHS, cwd },
      };
    }
    default: {
      const never: never = host.level;
      throw fail(`unknown sandbox level ${String(never)}`);
    }
  }
};

/**
 * What one step started by a run's resident launcher (open-step-launcher.ts) is given: the
 * same environment and working folder a sandbox of its own would give it, tagged with its
 * own id. The launcher's sandbox supplies the rest (uid, namespaces, folders, limits).
 */
export const buildLauncherStep = (
  host: SandboxHost,
  spec: Pick<SandboxSpec, "argv" | "cwd" | "env">,
  stepId: string,
): { argv: string[]; env: Record<string, string>; cwd: string } => {
  if (!spec.argv[0]) throw fail("empty argv");
  if (spec.argv.some((a) => a.includes("\0"))) throw fail("an argument contains a NUL byte");
  return {
    argv: spec.argv,
    env: stepEnv(host, spec, stepId, SANDBOX_PATHS.home, SANDBOX_PATHS.tmp),
    cwd: insideCwd(SANDBOX_PATHS.workspace, spec.cwd),
  };
};
