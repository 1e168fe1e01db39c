/**
 * Where an executor's agent steps find the built switchyard CLI (each step's proxy) and the
 * agent CLIs, found and staged once per executor: concurrent steps share one staging, and a
 * staging that failed is tried again by the next step. A folder of `undefined` means the
 * step uid can read the original where it is (`switchyard run` without a step uid of its own).
 * A step takes the pinned install (`<agentsDir>/<name>`) unless it asks for `latest`
 * (`<agentsDir>/latest/<name>`, from `npm run agents:install -- --latest`); a pinned install
 * at another version than scripts/agents.json pins is staged all the same, and told once.
 */
import path from "node:path";
import { AppError } from "../../errors";
import {
  AGENT_PINS,
  installedVersionIn,
  LATEST_AGENTS_DIR,
  type AgentVersionChoice,
} from "../agent-versions";
import type { AgentId } from "../locate-agent";
import { agentInPlace, stageAgent, type StagedAgent } from "./stage-agent";
import { findBuiltCli, stageBuiltCli, type BuiltCli } from "./built-cli";

export type AgentStagingOptions = {
  /** The built CLI (packages/cli/dist, which packages/cli/bin/build.mjs makes). */
  cliDist: string;
  /** Where `npm run agents:install` put the agent CLIs. */
  agentsDir: string;
  /** The folder the built CLI is staged in (one the step uid can enter); undefined: used in place. */
  cliStageDir: () => Promise<string | undefined>;
  /** The folder the agent CLIs are staged in; undefined: used in place. */
  agentsStageDir: () => Promise<string | undefined>;
  /** Told when the built CLI is older than its sources. */
  onStaleCli?: (dir: string) => void;
  /** Told once per CLI when its pinned install is at another version than the pin. */
  onVersionDrift?: (drift: AgentVersionDrift) => void;
};

/** A CLI whose pinned install is at another version than scripts/agents.json pins. */
export type AgentVersionDrift = { agent: AgentId; pinned: string; installed: string };

export type AgentStaging = {
  builtCli: () => Promise<BuiltCli>;
  /** The CLI's pinned install (the default), or its `latest` one. */
  agent: (agent: AgentId, version?: AgentVersionChoice) => Promise<StagedAgent>;
};

/** A cache of one promise per key, forgotten when it fails. */
const once = <K, V>(make: (key: K) => Promise<V>) => {
  const made = new Map<K, Promise<V>>();
  return (key: K) => {
    let found = made.get(key);
    if (!found) {
      found = Promise.resolve().then(() => make(key));
      made.set(key, found);
      found.catch(() => made.delete(key));
    }
    return found;
  };
};

/** The `--latest` agents folder, when it holds `agent`. */
const latestDir = (agentsDir: string, agent: AgentId) => {
  const dir = path.join(agentsDir, LATEST_AGENTS_DIR);
  if (installedVersionIn(path.join(dir, agent), AGENT_PINS[agent].package) === null)
    throw new AppError(
      "USER.AGENT.VERSION_NOT_INSTALLED",
      `no newest release of ${agent} is installed in ${dir}: run \`npm run agents:install -- --latest --only ${agent}\``,
      { details: { agent, agents_dir: dir } },
    );
  return dir;
};

/** Finds and stages the built CLI and the agent CLIs once for all of an executor's agent steps. */
export const createAgentStaging = (options: AgentStagingOptions): AgentStaging => {
  const cli = once(async (_: "cli") => {
    const found = await findBuiltCli(options.cliDist);
    if (found.stale) options.onStaleCli?.(found.dir);
    const dir = await options.cliStageDir();
    return dir === undefined ? found : stageBuiltCli(found, dir);
  });
  const agent = once(async (key: `${AgentId}:${AgentVersionChoice}`) => {
    const [id, version] = key.split(":") as [AgentId, AgentVersionChoice];
    const from = version === "latest" ? latestDir(options.agentsDir, id) : options.agentsDir;
    const dir = await options.agentsStageDir();
    const staged = dir === undefined ? agentInPlace(from, id) : await stageAgent(from, id, dir);
    const pinned = AGENT_PINS[id].version;
    if (version === "pinned" && staged.version !== pinned)
      options.onVersionDrift?.({ agent: id, pinned, installed: staged.version });
    return staged;
  });
  return {
    builtCli: () => cli("cli"),
    agent: (id, version = "pinned") => agent(`${id}:${version}`),
  };
};
