/**
 * The agent CLI versions the replay form lists: each CLI's pinned version from
 * scripts/agents.json. What is installed besides (a `--latest` install) is not read yet:
 * `latest` is null until the agents folder is read here.
 */
import pins from "../../../../../scripts/agents.json";

export const agentVersions = () => ({
  agents: Object.entries(pins.agents).map(([agent, pin]) => ({
    agent,
    pinned: pin.version,
    latest: null,
  })),
});
