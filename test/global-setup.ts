/**
 * Integration suite setup: the services are up (scripts/test.sh started them); build the
 * migrated template database once and drop databases left by interrupted runs.
 */
import { dropStaleTestDatabases, prepareTemplate } from "@switchyard/testing/db";

export default async function setup() {
  const base = process.env.DATABASE_URL;
  if (!base)
    throw new Error(
      "DATABASE_URL is not set: run the suite with `npm test`, which starts the services",
    );
  if (!process.env.REDIS_URL)
    throw new Error("REDIS_URL is not set: run the suite with `npm test`");
  const template = await prepareTemplate(base);
  await dropStaleTestDatabases(base, template);
}
