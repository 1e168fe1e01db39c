/**
 * A worker of its own for connector tests: its database pool and its connector pool, as
 * another process has, opening a step's connectors of the seeded team in the operator lane
 * (started by the seeded admin) with loopback egress. What it opens is closed by `closers`.
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

/** A worker's connector pool that reaches servers on loopback (what tests start). */
export const loopbackWorkerConnectors = (
  options: Omit<
    Parameters<typeof createWorkerConnectors>[0],
    "allowAnyCommand" | "oauthFetch"
  > = {},
) =>
  createWorkerConnectors({
    allowAnyCommand: () => Promise.resolve(false),
    oauthFetch: loopbackEgressFetch(),
    httpFetch: loopbackEgressFetch("connector"),
    ...options,
  });

type StepOf = Parameters<typeof openStepConnectors>[0];

/** A step of the seeded team opened on `connectors` as the worker opens it; `step` says whose and where. */
export const openSeededStep = (
  seeded: SeededDatabase,
  keyring: Keyring,
  connectors: WorkerConnectors,
  step: Omit<StepOf, "db" | "keyring" | "log" | "connectors" | "scrubber" | "teamId">,
) =>
  openStepConnectors({
    db: seeded.db,
    keyring,
    log: createLogger("error", { service: "test" }),
    connectors,
    scrubber: new Scrubber(),
    teamId: seeded.teamId,
    ...step,
  }).then((opened) => opened!);

export const startConnectorWorker = (
  seeded: SeededDatabase,
  keyring: Keyring,
  closers: (() => Promise<unknown>)[],
) => {
  const db = createDb(seeded.url, { max: 3 });
  const connectors = loopbackWorkerConnectors();
  closers.push(
    () => connectors.pool.close(),
    () => db.$disconnect(),
  );
  return (slug: string, scrubber = new Scrubber()) =>
    openStepConnectors({
      db,
      keyring,
      log: createLogger("error", { service: "test" }),
      connectors,
      scrubber,
      teamId: seeded.teamId,
      runId: null,
      lane: "operator",
      starterId: seeded.adminId,
      slugs: [slug],
      stateName: "agent",
    });
};
