/**
 * The demo team's agent workflow and what it runs on: the worker's built-in demo model,
 * allowed for the team's openai_compatible steps, and the demo connector shipped with
 * Switchyard (a stdio server the worker builds at boot and hosts in its sandbox). The
 * model access is set only while the team has none for openai_compatible, so an admin's
 * own choice there (a real endpoint, a key) is never changed by a restart; the connector
 * only while the team has none named `demo`.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BUILTIN_CONNECTORS_INSIDE } from "@switchyard/core/connectors";
import type { Db } from "./client";
import { saveWorkflowVersion } from "./repositories/bundle-store";
import { createConnector, findConnector } from "./repositories/connectors";
import { findModelAccess, storeModelAccess } from "./repositories/model-access";

/** The demo workflow's file, its model's URL written `__DEMO_MODEL_URL__`. */
const DEMO_AGENT_FILE = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "seed-demo",
  "demo-agent.yaml",
);

/** The demo workflow's text for a demo model at `modelUrl`. */
export const demoAgentYaml = (modelUrl: string) =>
  readFileSync(DEMO_AGENT_FILE, "utf8").replaceAll("__DEMO_MODEL_URL__", modelUrl);

export const seedDemoAgent = async (
  db: Db,
  input: { teamId: string; adminId: string; modelUrl: string },
) => {
  const { teamId, adminId, modelUrl } = input;
  await db.$transaction(async (tx) => {
    if (!(await findModelAccess(tx, teamId, "openai_compatible")))
      await storeModelAccess(tx, {
        teamId,
        vendor: "openai_compatible",
        endpoint: null,
        allowedEndpoints: [modelUrl],
      });
    if (!(await findConnector(tx, teamId, "demo")))
      await createConnector(tx, {
        teamId,
        slug: "demo",
        createdById: adminId,
        max: Number.MAX_SAFE_INTEGER,
        name: "Demo connector",
        description:
          "Shipped with Switchyard for the demo agent: counts the words of a text, tells the date. No account, no network.",
        transport: "stdio",
        config: {
          command: "node",
          args: [`${BUILTIN_CONNECTORS_INSIDE}/demo-connector.mjs`],
          env: {},
          network: false,
        },
        lanes: ["default"],
        credentialMode: "team",
        initialTools: [],
        toolAllow: {},
        enabled: true,
        curatedKey: null,
      });
  });
  const yaml = demoAgentYaml(modelUrl);
  return saveWorkflowVersion(db, {
    teamId,
    name: "demo-agent",
    description: /^description:\s*(.+)$/m.exec(yaml)?.[1] ?? "",
    lane: "default",
    files: { "workflow.yaml": yaml },
    createdById: adminId,
  });
};
