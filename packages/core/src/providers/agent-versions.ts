/**
 * Which version of each agent CLI an agents folder holds, against the pins of
 * scripts/agents.json (bundled in, so the worker and the built CLI read the same pins): a
 * CLI installed at another version than its pin has drifted, and runs its steps all the
 * same, but the worker and `switchyard run` say so. Versions are read from the installed
 * package's own package.json (what npm put there), not from the install stamp. Layout
 * (scripts/agents-install.sh): `<agentsDir>/<name>` holds the pinned install,
 * `<agentsDir>/latest/<name>` the newest release from `npm run agents:install -- --latest`.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import pinsFile from "../../../../scripts/agents.json" with { type: "json" };
import { AGENT_IDS, type AgentId } from "./locate-agent";

/** The folder under an agents folder that `--latest` installs into. */
export const LATEST_AGENTS_DIR = "latest";

/** Which install of a CLI a step runs: the pinned one, or the newest from `--latest`. */
export type AgentVersionChoice = "pinned" | "latest";

export type AgentPin = { package: string; version: string };

/** The pins of scripts/agents.json, by CLI. */
export const AGENT_PINS: Readonly<Record<AgentId, AgentPin>> = Object.fromEntries(
  AGENT_IDS.map((id) => {
    const pin = (pinsFile.agents as Record<string, AgentPin | undefined>)[id];
    if (!pin) throw new Error(`scripts/agents.json pins no ${id}`);
    return [id, { package: pin.package, version: pin.version }];
  }),
) as Record<AgentId, AgentPin>;

export type InstalledAgentVersion = {
  agent: AgentId;
  package: string;
  /** The version scripts/agents.json pins. */
  pinned: string;
  /** The version in the CLI's prefix (`<agentsDir>/<name>`); null: not installed. */
  installed: string | null;
  /** The version in `<agentsDir>/latest/<name>`; null: none there. */
  latest: string | null;
  /** Installed, at another version than the pin. */
  drift: boolean;
};

/** The version of `pkg` installed in the npm prefix `prefix`, or null when it is not there. */
export const installedVersionIn = (prefix: string, pkg: string): string | null => {
  try {
    const manifest = JSON.parse(
      readFileSync(path.join(prefix, "node_modules", pkg, "package.json"), "utf8"),
    ) as { version?: unknown };
    return typeof manifest.version === "string" ? manifest.version : null;
  } catch {
    return null;
  }
};

/** Each pinned CLI: its pin, the version installed in `agentsDir`, and the one in its `latest/` folder. */
export const installedAgentVersions = (
  agentsDir: string,
  pins: Readonly<Record<AgentId, AgentPin>> = AGENT_PINS,
): InstalledAgentVersion[] =>
  AGENT_IDS.map((agent) => {
    const pin = pins[agent];
    const installed = installedVersionIn(path.join(agentsDir, agent), pin.package);
    return {
      agent,
      package: pin.package,
      pinned: pin.version,
      installed,
      latest: installedVersionIn(path.join(agentsDir, LATEST_AGENTS_DIR, agent), pin.package),
      drift: installed !== null && installed !== pin.version,
    };
  });
