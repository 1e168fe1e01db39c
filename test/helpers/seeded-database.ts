/**
 * A database of the test file's own, cloned from the migrated template and seeded with
 * the demo team and its admin, for tests that need no worker.
 */
import { createDb, type Db } from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { freshDatabase } from "@switchyard/testing/db";

export type SeededDatabase = {
  db: Db;
  url: string;
  adminId: string;
  teamId: string;
  close: () => Promise<void>;
};

export const openSeededDatabase = async (): Promise<SeededDatabase> => {
  const database = await freshDatabase();
  const db = createDb(database.url, { max: 2 });
  const seeded = await seed(db, { adminEmail: "admin@test.local", adminPassword: "pw-test-1234" });
  return {
    db,
    url: database.url,
    adminId: seeded.admin.id,
    teamId: seeded.team.id,
    close: async () => {
      await db.$disconnect();
      await database.drop();
    },
  };
};
