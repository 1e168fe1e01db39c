/**
 * A step's connectors opened in the worker as a test's step would have them: one connector
 * of the seeded team, in the operator lane, for no run.
 */
import type { Keyring } from "@switchyard/core/crypto";
import type { Scrubber } from "@switchyard/core/secrets";
import type { Db } from "@switchyard/db";
import { createLogger } from "../../apps/worker/src/logger";
import { openStepConnectors, type WorkerConnectors } from "../../apps/worker/src/team-connectors";

export const openTestStep = (
  services: { db: Db; keyring: Keyring; connectors: WorkerConnectors; teamId: string },
  step: { slug: string; starterId: string | null; scrubber: Scrubber; stateName?: string },
) =>
  openStepConnectors({
    ...services,
    log: createLogger("error", { service: "test" }),
    scrubber: step.scrubber,
    runId: null,
    lane: "operator",
    starterId: step.starterId,
    slugs: [step.slug],
    stateName: step.stateName ?? "agent",
  });
