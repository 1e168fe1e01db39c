/**
 * An agents folder whose pinned CLI has drifted: the runtime and `agent` of a real agents
 * folder as trees of hard links (readable by whoever reads the original), with the CLI's
 * package.json replaced by a copy that says `version`. The CLI itself is the pinned one and
 * runs as usual; only what the folder says of its version differs.
 */
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { AGENT_RUNTIME, locateAgent, stageTree, type AgentId } from "@switchyard/core/providers";

export const driftedAgentsDir = async (
  agentsDir: string,
  target: string,
  agent: AgentId,
  version: string,
) => {
  const { package: pkg } = locateAgent(agentsDir, agent);
  for (const name of [AGENT_RUNTIME, agent])
    await stageTree(path.join(agentsDir, name), path.join(target, name));
  const manifest = path.join(target, agent, "node_modules", pkg, "package.json");
  const text = await readFile(manifest, "utf8");
  // A new file, not a write through the hard link into the original.
  await rm(manifest);
  await writeFile(manifest, JSON.stringify({ ...JSON.parse(text), version }, null, 2), {
    mode: 0o644,
  });
  return target;
};
