/**
 * Reads the workers' heartbeat keys (see worker-heartbeat.ts) through a minimal Redis
 * surface, so the dashboard and the worker's boot check share one reader.
 */
import { workerHeartbeatKey, workerInfoSchema, type WorkerInfo } from "./worker-heartbeat";

type HeartbeatReader = {
  scan(
    cursor: string,
    match: "MATCH",
    pattern: string,
    count: "COUNT",
    n: number,
  ): Promise<[string, string[]]>;
  mget(keys: string[]): Promise<(string | null)[]>;
};

/** Live workers under a queue prefix; `ownerId` narrows to one owner's workers. */
export const listWorkers = async (
  redis: HeartbeatReader,
  prefix: string,
  ownerId?: string,
): Promise<WorkerInfo[]> => {
  const pattern = workerHeartbeatKey(prefix, ownerId === undefined ? "*" : `${ownerId}:*`);
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 100);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== "0");
  if (keys.length === 0) return [];
  return (await redis.mget(keys))
    .flatMap((v) => {
      const parsed = v ? workerInfoSchema.safeParse(JSON.parse(v)) : undefined;
      return parsed?.success ? [parsed.data] : [];
    })
    .sort((a, b) => a.workerId.localeCompare(b.workerId));
};
