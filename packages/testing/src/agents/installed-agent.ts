/**
 * The pinned agent CLIs for end-to-end tests: found in an agents folder, installed there on
 * demand by `npm run agents:install -- --only <agent>` (once per machine, saying so), and
 * undefined only when that install fails, for the suite to skip saying why.
 *
 * With SWITCHYARD_AGENTS_ANY_VERSION=1 in `env` (set by `npm run test:agents -- --latest`,
 * which points SWITCHYARD_AGENTS_DIR at <agents folder>/latest) whatever version the folder
 * holds is taken, and nothing is installed: installing here would put the pin there.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isAppError } from "@switchyard/core/errors";
import {
  AGENT_PINS,
  locateAgent,
  type AgentId,
  type LocatedAgent,
} from "@switchyard/core/providers";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");

/** The version scripts/agents.json pins for `agent`. */
export const pinnedVersion = (agent: AgentId): string => AGENT_PINS[agent].version;

/** `env` is the environment the install runs with (the test's own). */
export const installedAgent = (
  agentsDir: string,
  agent: AgentId,
  say: (line: string) => void,
  env: Record<string, string | undefined>,
): LocatedAgent | undefined => {
  const anyVersion = env.SWITCHYARD_AGENTS_ANY_VERSION === "1";
  const locate = () =>
    locateAgent(agentsDir, agent, anyVersion ? {} : { version: pinnedVersion(agent) });
  try {
    return locate();
  } catch (error) {
    if (!isAppError(error) || error.code !== "EXECUTION.AGENT_UNAVAILABLE") throw error;
    if (anyVersion) {
      say(`SKIPPED: ${error.message} (SWITCHYARD_AGENTS_ANY_VERSION=1 installs nothing)`);
      return undefined;
    }
    say(`${error.message}; installing it now (once per machine)`);
  }
  const install = spawnSync(
    "bash",
    [path.join(REPO, "scripts/agents-install.sh"), "--only", agent],
    {
      cwd: REPO,
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...env, SWITCHYARD_AGENTS_DIR: agentsDir },
      timeout: 15 * 60_000,
    },
  );
  try {
    return locate();
  } catch (error) {
    say(
      `SKIPPED: ${agent} could not be installed into ${agentsDir} (install exit ${install.status}): ${(error as Error).message}`,
    );
    return undefined;
  }
};
