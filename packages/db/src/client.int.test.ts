import { afterAll, expect, it } from "vitest";
import { createDb } from "./client";

const db = createDb(process.env.DATABASE_URL!, { max: 1 });
afterAll(() => db.$disconnect());

it("a transaction queued behind another for longer than Prisma's 2 s default still runs", async () => {
  const holder = db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT pg_sleep(3)::text AS slept`;
    return "first";
  });
  // The only connection is taken: this one waits about 3 s for it.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const queued = db.$transaction(
    async (tx) => (await tx.$queryRaw<{ n: number }[]>`SELECT 2 AS n`)[0]!.n,
  );
  await expect(Promise.all([holder, queued])).resolves.toEqual(["first", 2]);
}, 30_000);
