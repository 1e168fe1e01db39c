/**
 * The bwrap options of one confined step: which namespaces, the read-only minimal root,
 * the private folders, extra binds, and the step's environment. They travel to bwrap
 * through a descriptor (`--args`), so neither the launcher chain nor the host's process
 * list ever holds the step's variables.
 */
import { SANDBOX_PATHS, type SandboxHost, type SandboxSpec } from "./sandbox-types";

/** File descriptors the launcher hands to bwrap (0-2 are the step's stdio). */
export const FD = { passwd: 3, group: 4, status: 5, args: 6 } as const;

/** Size of the sandbox's private /dev/shm (memory-backed). */
const SHM_BYTES = 64 * 1024 * 1024;

export const bwrapOptions = (
  host: SandboxHost,
  spec: SandboxSpec,
  cwd: string,
  env: Record<string, string>,
): string[] => [
  "--unshare-user",
  "--unshare-pid",
  "--unshare-ipc",
  "--unshare-uts",
  "--unshare-cgroup-try",
  ...(spec.network ? [] : ["--unshare-net"]),
  "--disable-userns",
  "--die-with-parent",
  "--new-session",
  "--cap-drop",
  "ALL",
  "--hostname",
  "sandbox",
  ...host.systemPaths.flatMap((p) => ["--ro-bind", p, p]),
  ...host.rootSymlinks.flatMap((s) => ["--symlink", s.target, s.path]),
  "--proc",
  "/proc",
  "--dev",
  "/dev",
  "--perms",
  "1777",
  "--size",
  String(SHM_BYTES),
  "--tmpfs",
  "/dev/shm",
  "--remount-ro",
  "/dev",
  "--bind",
  spec.workspace,
  SANDBOX_PATHS.workspace,
  "--bind",
  spec.home,
  SANDBOX_PATHS.home,
  "--bind",
  spec.tmp,
  SANDBOX_PATHS.tmp,
  ...(spec.binds ?? []).flatMap((b) => [
    b.mode === "rw" ? "--bind" : "--ro-bind",
    b.path,
    b.target ?? b.path,
  ]),
  "--ro-bind-data",
  String(FD.passwd),
  "/etc/passwd",
  "--ro-bind-data",
  String(FD.group),
  "/etc/group",
  "--remount-ro",
  "/",
  "--chdir",
  cwd,
  "--json-status-fd",
  String(FD.status),
  "--clearenv",
  ...Object.entries(env).flatMap(([key, value]) => ["--setenv", key, value]),
];
