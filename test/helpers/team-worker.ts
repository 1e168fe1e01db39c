/**
 * What connector tests need of a worker and of the database: a worker of their own (its
 * database pool and connector pool, as another process has) that opens one connector of the
 * seeded team for a step as the admin, and every row of every table as JSON text (sealed
 * columns come out as hex), to show that no secret is stored in the clear.
 */
import type { Keyring } from "@switchyard/core/crypto";
import { Scrubber } from "@switchyard/core/secrets";
import { createDb } from "@switchyard/db";
import { loopbackEgressFetch } from "@switchyard/testing/egress";
import { createLogger } from "../../apps/worker/src/logger";
import {
  createWorkerConnectors,
  openStepConnectors,
  type WorkerConnectors,
} from "../../apps/worker/src/team-connectors";
import type { SeededDatabase } from "./seeded-database";

/** Starts a worker; what it answers opens connector `slug` for one step with `scrubber`. */
export const startTeamWorker = (
  seeded: SeededDatabase,
  keyring: Keyring,
  closers: (() => Promise<unknown>)[],
) => {
  const db = createDb(seeded.url, { max: 3 });
  const connectors = createWorkerConnectors({
    allowAnyCommand: () => Promise.resolve(false),
    oauthFetch: loopbackEgressFetch(),
    httpFetch: loopbackEgressFetch("connector"),
  });
  closers.push(
    () => connectors.pool.close(),
    () => db.$disconnect(),
  );
  return (slug: string, scrubber = new Scrubber()) =>
    openTeamStep({ seeded, keyring, connectors, db }, { slug, scrubber, stateName: "agent" });
};

/** Opens connector `slug` of the seeded team for one step of a run the admin started, in lane operator. */
export const openTeamStep = (
  worker: {
    seeded: SeededDatabase;
    keyring: Keyring;
    connectors: WorkerConnectors;
    db: SeededDatabase["db"];
  },
  step: { slug: string; scrubber: Scrubber; stateName: string },
) =>
  openStepConnectors({
    db: worker.db,
    keyring: worker.keyring,
    log: createLogger("error", { service: "test" }),
    connectors: worker.connectors,
    scrubber: step.scrubber,
    teamId: worker.seeded.teamId,
    runId: null,
    lane: "operator",
    starterId: worker.seeded.adminId,
    slugs: [step.slug],
    stateName: step.stateName,
  });

export const everyRow = async (db: SeededDatabase["db"]) => {
  const tables = await db.$queryRaw<
    { name: string }[]
  >`SELECT table_name::text AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`;
  const rows = await Promise.all(
    tables.map((t) =>
      db.$queryRawUnsafe<{ row: string }[]>(
        `SELECT row_to_json(t)::text AS row FROM "${t.name}" t`,
      ),
    ),
  );
  return rows
    .flat()
    .map((r) => r.row)
    .join("\n");
};
