/** The agents folder of the suite (SWITCHYARD_AGENTS_DIR or ~/.cache/switchyard/agents) and its pinned CLIs, installed on demand. */
import { homedir } from "node:os";
import path from "node:path";
import type { AgentId } from "@switchyard/core/providers";
import { installedAgent as installedIn } from "@switchyard/testing/agents";

export const AGENTS_DIR =
  process.env.SWITCHYARD_AGENTS_DIR || path.join(homedir(), ".cache/switchyard/agents");

export const installedAgent = (agent: AgentId, say: (line: string) => void) =>
  installedIn(AGENTS_DIR, agent, say, process.env);
