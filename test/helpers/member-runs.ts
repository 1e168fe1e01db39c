/**
 * Runs of one saved workflow, started by the seeded admin or by a member added here, each
 * with an agent step whose connectors open on a pool the test shares between them: for tests
 * of what one run's connector calls may and may not reach of another's.
 */
import type { Keyring } from "@switchyard/core/crypto";
import { createRun } from "@switchyard/db";
import type { WorkerConnectors } from "../../apps/worker/src/team-connectors";
import type { SeededDatabase } from "./seeded-database";
import { addMember } from "./team-member";
import { saveAgentWorkflow } from "./waiting-run";
import { openSeededStep } from "./worker-step-connectors";

export const memberRuns = async (
  seeded: SeededDatabase,
  keyring: Keyring,
  connectors: WorkerConnectors,
  /** The connector each step opens (the workflow is named after it). */
  slug: string,
) => {
  const memberId = await addMember(seeded.db, seeded.teamId, {
    email: "member@test.local",
    name: "Member",
    role: "member",
  });
  const saved = await saveAgentWorkflow(seeded.db, seeded.teamId, `${slug}-runs`);
  /** A run started by `starterId` and its step on the pool; unless `forms` is false, its forms wait a minute for an answer. */
  const stepOf = async (starterId: string, forms = true) => {
    const run = await createRun(seeded.db, {
      teamId: seeded.teamId,
      workflowId: saved.workflowId,
      workflowVersionId: saved.id,
      lane: "default",
      trigger: "dashboard",
      inputs: {},
      startedById: starterId,
    });
    const step = await openSeededStep(seeded, keyring, connectors, {
      runId: run.id,
      lane: "default",
      starterId,
      slugs: [slug],
      stateName: "agent",
      ...(forms ? { elicitation: { waitMs: 60_000 } } : {}),
    });
    return { runId: run.id, host: step.host };
  };
  return { memberId, stepOf };
};
