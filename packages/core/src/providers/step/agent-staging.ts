/**
 * Where an executor's agent steps find the built switchyard CLI (each step's proxy) and the
 * agent CLIs, found and staged once per executor: concurrent steps share one staging, and a
 * staging that failed is tried again by the next step. A folder of `undefined` means the
 * step uid can read the original where it is (`switchyard run` without a step uid of its own).
 */
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
};

export type AgentStaging = {
  builtCli: () => Promise<BuiltCli>;
  agent: (agent: AgentId) => Promise<StagedAgent>;
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

/** Finds and stages the built CLI and the agent CLIs once for all of an executor's agent steps. */
export const createAgentStaging = (options: AgentStagingOptions): AgentStaging => {
  const cli = once(async (_: "cli") => {
    const found = await findBuiltCli(options.cliDist);
    if (found.stale) options.onStaleCli?.(found.dir);
    const dir = await options.cliStageDir();
    return dir === undefined ? found : stageBuiltCli(found, dir);
  });
  const agent = once(async (id: AgentId) => {
    const dir = await options.agentsStageDir();
    return dir === undefined
      ? agentInPlace(options.agentsDir, id)
      : stageAgent(options.agentsDir, id, dir);
  });
  return { builtCli: () => cli("cli"), agent };
};
