/**
 * Kills what a crashed owner left behind: every process whose environment carries the
 * owner's tag (the launcher, bwrap and everything inside), plus, when given, every
 * process of the owner's step uids. The worker calls it at boot, before taking jobs.
 */
import { killTagged, listPids, signalPid } from "./proc-scan";
import { OWNER_TAG } from "./build-launch";
import { readFileSync } from "node:fs";

export type SweepOptions = { uids?: number[] };

const realUid = (pid: number): number | undefined => {
  try {
    const m = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
};

export const sweepLeftovers = async (
  ownerId: string,
  options: SweepOptions = {},
): Promise<{ killed: number[] }> => {
  const killed = new Set(await killTagged(OWNER_TAG, ownerId));
  const uids = new Set(options.uids ?? []);
  // Never root, never ourselves: only dedicated step uids may be swept wholesale.
  uids.delete(0);
  uids.delete(process.getuid?.() ?? 0);
  if (uids.size > 0) {
    for (let round = 0; round < 20; round++) {
      const pids = listPids().filter((pid) => {
        const uid = realUid(pid);
        return uid !== undefined && uids.has(uid);
      });
      if (pids.length === 0) break;
      for (const pid of pids) if (signalPid(pid, "SIGKILL")) killed.add(pid);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  return { killed: [...killed] };
};
