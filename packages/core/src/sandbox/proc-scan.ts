/**
 * Finds sandboxed processes by reading /proc: by environment tag (every sandboxed process
 * carries its owner and sandbox id) and by PID namespace. This is how a stop reaches every
 * process of a step, and how a restarted worker finds what a crashed one left.
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

const PROC = "/proc";

let scans = 0;

/** How many times this process has listed /proc (each scan lists it once). */
export const procScans = () => scans;

/** The ids of all processes visible in /proc. */
export const listPids = (): number[] => {
  scans++;
  return readdirSync(PROC)
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => pid !== process.pid);
};

const readEnviron = (pid: number): string | undefined => {
  try {
    return readFileSync(`${PROC}/${pid}/environ`, "latin1");
  } catch {
    return undefined;
  }
};

/**
 * Processes whose initial environment holds exactly `key=value`; with `below`, also
 * `key=value/<anything>` (an owner's runs are tagged `<owner>/<run>`).
 */
export const pidsWithEnv = (
  key: string,
  value: string,
  options: { below?: boolean } = {},
): number[] => {
  const entry = `${key}=${value}`;
  const prefix = `${entry}/`;
  return listPids().filter((pid) => {
    const env = readEnviron(pid);
    if (env === undefined) return false;
    return env
      .split("\0")
      .some((e) => e === entry || (options.below === true && e.startsWith(prefix)));
  });
};

/** The real, effective, saved and filesystem uids of a live process (none for a zombie). */
const uidsOf = (pid: number): number[] => {
  try {
    const status = readFileSync(`${PROC}/${pid}/status`, "utf8");
    if (/^State:\s+Z/m.test(status)) return [];
    const m = /^Uid:\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)/m.exec(status);
    return m ? m.slice(1).map(Number) : [];
  } catch {
    return [];
  }
};

/** Every uid some live process runs as (real, effective, saved or filesystem uid). */
export const liveUids = (): Set<number> => new Set(listPids().flatMap(uidsOf));

/** Live processes running as `uid` (real, effective, saved or filesystem uid). */
export const pidsOfUid = (uid: number): number[] =>
  listPids().filter((pid) => uidsOf(pid).includes(uid));

export const pidNamespaceOf = (pid: number): string | undefined => {
  try {
    return readlinkSync(`${PROC}/${pid}/ns/pid`);
  } catch {
    return undefined;
  }
};

/**
 * When a process started (clock ticks since boot, /proc/<pid>/stat field 22): with its pid,
 * an identity that a later process reusing the pid cannot share.
 */
export const processStartTime = (pid: number): string | undefined => {
  try {
    const stat = readFileSync(`${PROC}/${pid}/stat`, "utf8");
    // Fields after the command name, which is in parentheses and may contain spaces.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
};

/**
 * Whether the process that had `pid` and started at `startTime` still runs: false once it
 * is gone, a zombie (it has finished exiting) or the pid belongs to another process.
 */
export const runsAs = (pid: number, startTime: string): boolean => {
  try {
    const stat = readFileSync(`${PROC}/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19] === startTime && fields[0] !== "Z" && fields[0] !== "X";
  } catch {
    return false;
  }
};

/** Processes living in the PID namespace `ns` (as read from /proc/<pid>/ns/pid). */
export const pidsInNamespace = (ns: string): number[] =>
  listPids().filter((pid) => pidNamespaceOf(pid) === ns);

export const signalPid = (pid: number, signal: NodeJS.Signals): boolean => {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * SIGKILLs what `find` reports until a scan finds nothing (a process may fork between a
 * scan and its kill, hence the rounds, 10 ms apart). Returns the pids it signalled and
 * those still found after the last round.
 */
export const killUntilGone = async (
  find: () => number[],
  rounds = 50,
): Promise<{ killed: number[]; left: number[] }> => {
  const killed = new Set<number>();
  for (let round = 0; round < rounds; round++) {
    const pids = find();
    if (pids.length === 0) return { killed: [...killed], left: [] };
    for (const pid of pids) if (signalPid(pid, "SIGKILL")) killed.add(pid);
    await sleep(10);
  }
  return { killed: [...killed], left: find() };
};

/** SIGKILLs every process tagged `key=value` until a scan finds none; returns the pids it signalled. */
export const killTagged = async (key: string, value: string, rounds = 50): Promise<number[]> =>
  (await killUntilGone(() => pidsWithEnv(key, value), rounds)).killed;
