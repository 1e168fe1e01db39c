import { workerHeartbeatPattern, workerInfoSchema, type WorkerInfo } from "@switchyard/core/runs";
import { authedProcedure, router } from "../init";

export const systemRouter = router({
  /** Workers whose heartbeat is fresh, with the sandbox level each runs steps at. */
  workers: authedProcedure.query(async ({ ctx }): Promise<WorkerInfo[]> => {
    const keys: string[] = [];
    let cursor = "0";
    do {
      const [next, batch] = await ctx.redis().scan(cursor, "MATCH", workerHeartbeatPattern(ctx.queuePrefix), "COUNT", 100);
      cursor = next;
      keys.push(...batch);
    } while (cursor !== "0");
    if (keys.length === 0) return [];
    const values = await ctx.redis().mget(keys);
    return values
      .flatMap((v) => {
        const parsed = v ? workerInfoSchema.safeParse(JSON.parse(v)) : undefined;
        return parsed?.success ? [parsed.data] : [];
      })
      .sort((a, b) => a.workerId.localeCompare(b.workerId));
  }),
});
