/**
 * Finds sandboxed processes by reading /proc: by environment tag (every sandboxed process
 * carries its owner and sandbox id) and by PID namespace. This is how a stop reaches every
 * process of a step, and how a restarted worker finds what a crashed one left.
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

const PROC = "/proc";

export const listPids = (): number[] =>
  readdirSync(PROC)
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => pid !== process.pid);

const readEnviron = (pid: number): string | undefined => {
  try {
    return readFileSync(`${PROC}/${pid}/environ`, "latin1");
  } catch {
    return undefined;
  }
};

/** Processes whose initial environment holds exactly `key=value`. */
export const pidsWithEnv = (key: string, value: string): number[] => {
  const entry = `${key}=${value}`;
  return listPids().filter((pid) => {
    const env = readEnviron(pid);
    return env !== undefined && env.split("\0").includes(entry);
  });
};

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
 * SIGKILLs every process tagged `key=value` until a scan finds none (a process may fork
 * between a scan and its kill, hence the rounds). Returns the pids it signalled.
 */
export const killTagged = async (key: string, value: string, rounds = 50): Promise<number[]> => {
  const killed = new Set<number>();
  for (let round = 0; round < rounds; round++) {
    const pids = pidsWithEnv(key, value);
    if (pids.length === 0) break;
    for (const pid of pids) if (signalPid(pid, "SIGKILL")) killed.add(pid);
    await sleep(10);
  }
  return [...killed];
};
