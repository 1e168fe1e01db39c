/**
 * What a fault-injection test checks once the faults stop and the surviving workers have
 * finished: no run left running, no step attempt that succeeded twice, no process of a
 * worker's sandboxes (by owner tag or step uid) alive, no run folder left, and tool-call
 * records matching what the scripted model saw of each agent conversation.
 */
import { readdirSync, readFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { OWNER_TAG } from "@switchyard/core/sandbox";
import type { RecordedRequest } from "@switchyard/scripted-model";
import type { Db } from "@switchyard/db";

/** Processes tagged with one of `owners` (or a run below it) or running as a uid in `uids`. */
export const leftoverProcesses = (
  owners: string[],
  uids: { base: number; count: number }[] = [],
): string[] => {
  const found: string[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const owner = readFileSync(`/proc/${name}/environ`, "latin1")
        .split("\0")
        .find((e) => e.startsWith(`${OWNER_TAG}=`))
        ?.slice(OWNER_TAG.length + 1);
      if (owner && owners.some((o) => owner === o || owner.startsWith(`${o}/`)))
        found.push(`${name} tagged ${owner}`);
      const status = readFileSync(`/proc/${name}/status`, "utf8");
      if (/^State:\s+Z/m.test(status)) continue;
      const uid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]);
      if (uids.some((r) => uid >= r.base && uid < r.base + r.count))
        found.push(`${name} as uid ${uid}`);
    } catch {
      // gone while we looked
    }
  }
  return found;
};

/** Every path below `dir` that names one of `runIds` (a run folder or anything inside one). */
export const runFoldersLeft = async (dir: string, runIds: string[]) => {
  const ids = new Set(runIds);
  return (await readdir(dir, { recursive: true }).catch(() => [] as string[])).filter((p) =>
    p.split("/").some((part) => ids.has(part)),
  );
};

/** Step attempts recorded as succeeded more than once for the same run, state path and attempt number. */
export const attemptsSucceededTwice = async (db: Db, runIds: string[]) => {
  const rows = await db.stepRun.findMany({
    where: { runId: { in: runIds }, status: "succeeded" },
    select: { runId: true, stateName: true, attempt: true, path: true },
  });
  const seen = new Map<string, number>();
  for (const r of rows) {
    const key = `${r.runId} ${r.stateName} ${JSON.stringify(r.path)} #${r.attempt}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen].filter(([, n]) => n > 1).map(([k, n]) => `${k} x${n}`);
};

/**
 * A state (at one path) that succeeded in more than one attempt: the engine ran a step again
 * after it had already succeeded.
 */
export const statesSucceededTwice = async (db: Db, runIds: string[]) => {
  const rows = await db.stepRun.findMany({
    where: { runId: { in: runIds }, status: "succeeded" },
    select: { runId: true, stateName: true, path: true },
  });
  const seen = new Map<string, number>();
  for (const r of rows) {
    const key = `${r.runId} ${r.stateName} ${JSON.stringify(r.path)}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen].filter(([, n]) => n > 1).map(([k, n]) => `${k} x${n}`);
};

type ChatMessage = { role?: string; content?: unknown };

/**
 * The chat conversations the scripted model had whose messages carry `marker`, in order:
 * a request without tool results starts a new one (one agent attempt). For each: the tool
 * calls the model asked for (a script that plays `callsPerConversation` calls, one a
 * request, then answers) and the tool results it got back, with when each arrived.
 */
export const conversationsOf = (
  requests: RecordedRequest[],
  marker: string,
  callsPerConversation: number,
) => {
  const conversations: { issued: number; resultsSeen: number; resultTimes: number[] }[] = [];
  for (const r of requests) {
    const messages = (r.body as { messages?: ChatMessage[] } | undefined)?.messages;
    if (!Array.isArray(messages) || !JSON.stringify(messages).includes(marker)) continue;
    const results = messages.filter((m) => m.role === "tool").length;
    if (results === 0 || conversations.length === 0)
      conversations.push({ issued: 0, resultsSeen: 0, resultTimes: [] });
    const current = conversations.at(-1)!;
    if (results > current.resultsSeen) {
      for (let i = current.resultsSeen; i < results; i++)
        current.resultTimes.push(Date.parse(r.at));
      current.resultsSeen = results;
    }
    if (r.answeredBy?.kind === "rule" && (r.status ?? 200) < 400)
      current.issued = Math.max(current.issued, Math.min(results + 1, callsPerConversation));
  }
  return conversations;
};
