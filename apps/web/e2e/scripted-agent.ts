/**
 * What a browser test of an agent run sets up: the built CLI the worker runs as the step's
 * MCP proxy, a scripted model on the port the global setup let the worker call, and a
 * workflow of the demo team pointed at that model.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createDb, saveWorkflowVersion, teamBySlug } from "@switchyard/db";
import { startScriptedModel, type ScriptedModel } from "@switchyard/scripted-model";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

type Script = Parameters<typeof startScriptedModel>[0]["script"];

export const startScriptedAgent = async (options: {
  name: string;
  /** The workflow's YAML, given the model's base URL. */
  workflow: (modelUrl: string) => string;
  script: Script;
}): Promise<ScriptedModel> => {
  const built = spawnSync(process.execPath, [path.join(ROOT, "packages/cli/bin/build.mjs")], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 240_000,
  });
  if (built.status !== 0) throw new Error(`building the CLI failed: ${built.stderr}`);
  const model = await startScriptedModel({
    host: "127.0.0.1",
    port: Number(process.env.E2E_MODEL_PORT),
    script: options.script,
  });
  const db = createDb(process.env.E2E_DATABASE_URL!, { max: 1 });
  try {
    const team = await teamBySlug(db, "demo");
    await saveWorkflowVersion(db, {
      teamId: team.id,
      name: options.name,
      files: { "workflow.yaml": options.workflow(model.url) },
    });
  } finally {
    await db.$disconnect();
  }
  return model;
};
