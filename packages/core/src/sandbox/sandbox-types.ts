/**
 * The vocabulary of the step sandbox: levels, the host description the boot self-test
 * produces, per-step options, limits and results. Kept apart so the argument builder,
 * the launcher and the self-test share one definition.
 */

/** `strict`: namespaces and a dedicated uid; `namespaces`: no uid switch; `none`: no confinement. */
export type SandboxLevel = "strict" | "namespaces" | "none";

/** The sandbox levels, strongest first. */
export const SANDBOX_LEVELS: readonly SandboxLevel[] = ["strict", "namespaces", "none"];

/** Paths of the helper programs the sandbox starts. */
export type SandboxTools = { bwrap: string; setpriv: string; prlimit: string; bash: string };

/** Where the sandbox tools are looked for unless told. */
export const DEFAULT_TOOLS: SandboxTools = {
  bwrap: "/usr/bin/bwrap",
  setpriv: "/usr/bin/setpriv",
  prlimit: "/usr/bin/prlimit",
  bash: "/bin/bash",
};

/** What the boot self-test found; passed to every launch. */
export type SandboxHost = {
  level: SandboxLevel;
  /** Written into every sandboxed process's environment; `sweepLeftovers` looks for it. */
  ownerId: string;
  tools: SandboxTools;
  /** The worker runs as root: `strict` then needs a uid per step. */
  isRoot: boolean;
  /** Host paths bound read-only into every sandbox at the same place (the minimal root). */
  systemPaths: string[];
  /** Symlinks recreated at the sandbox root, e.g. /bin -> usr/bin on merged-/usr systems. */
  rootSymlinks: Array<{ target: string; path: string }>;
  /** Directories prepended to PATH inside, e.g. the Node.js install's bin folder. */
  extraPath: string[];
  warnings: string[];
};

export type SandboxBind = {
  /** Host path. Every folder above it must be traversable by the step uid. */
  path: string;
  mode: "ro" | "rw";
  /** Where it appears inside; defaults to `path`. */
  target?: string;
};

export type SandboxLimits = {
  cpuSeconds?: number;
  /**
   * Heap and other private writable memory per process (RLIMIT_DATA): the memory guard.
   * Unlike the address space it ignores reservations, so WebAssembly still works.
   */
  dataBytes?: number;
  /** Address space per process; unset by default (V8 reserves ~10 GiB per wasm memory). */
  addressSpaceBytes?: number;
  fileSizeBytes?: number;
  openFiles?: number;
  /** Processes and threads of the step uid; a fork bomb stops here. */
  processes?: number;
  /** Bytes kept of each output stream; the rest is counted and dropped. */
  outputBytes?: number;
};

/** The resource limits of a sandboxed process unless its spec says otherwise. */
export const DEFAULT_LIMITS: Required<Omit<SandboxLimits, "addressSpaceBytes">> = {
  cpuSeconds: 3600,
  dataBytes: 8 * 1024 ** 3,
  fileSizeBytes: 2 * 1024 ** 3,
  openFiles: 4096,
  processes: 1024,
  outputBytes: 1024 * 1024,
};

/** Where the private folders appear inside a confined sandbox. */
export const SANDBOX_PATHS = { workspace: "/workspace", home: "/home/step", tmp: "/tmp" } as const;

export type SandboxSpec = {
  argv: string[];
  /** Host folders: the step's workspace, HOME and temp folder (private, writable). */
  workspace: string;
  home: string;
  tmp: string;
  /** Working folder relative to the workspace; defaults to the workspace itself. */
  cwd?: string;
  /** Added to the allow-listed base; never inherited from the worker. */
  env?: Record<string, string>;
  binds?: SandboxBind[];
  network: boolean;
  limits?: SandboxLimits;
  /** The step's own uid (required at `strict`). */
  uid?: number;
  gid?: number;
  /** SIGTERM to SIGKILL; 5 s unless told. */
  killGraceMs?: number;
};

export type SandboxExit = {
  level: SandboxLevel;
  /** The host's warnings (e.g. level `none`), for the step's own log and record. */
  warnings: string[];
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  cancelled: boolean;
  durationMs: number;
};

export type SandboxResult = SandboxExit & {
  stdout: string;
  stderr: string;
  truncated: boolean;
  stdoutBytes: number;
  stderrBytes: number;
};
