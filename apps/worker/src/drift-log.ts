/**
 * The worker's log line for an agent CLI whose pinned install is at another version than
 * scripts/agents.json pins: said at boot and when a run stages it, once per process and
 * installed version (each run still gets its own `agent.version_drift` event).
 */
import type { AgentVersionDrift } from "@switchyard/core/providers";
import type { Logger } from "./logger";

/** The drifted installs this process has logged, as `<cli>@<version>`: said once, not per run. */
const loggedDrifts = new Set<string>();

export const logDrift = (log: Logger, drift: AgentVersionDrift) => {
  const key = `${drift.agent}@${drift.installed}`;
  if (loggedDrifts.has(key)) return;
  loggedDrifts.add(key);
  log.warn(
    `${drift.agent} ${drift.installed} is installed, scripts/agents.json pins ${drift.pinned}: run \`npm run agents:install -- --only ${drift.agent}\`, or bump the pin`,
    { ...drift },
  );
};
