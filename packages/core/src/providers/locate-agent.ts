/**
 * Finds an agent CLI that `npm run agents:install` (scripts/agents-install.sh) put in an
 * agents folder, and says how to start it: the program, the arguments before the CLI's own,
 * and the Node 22 runtime whose bin folder goes first on the CLI's PATH. The folder is an
 * argument (the caller reads SWITCHYARD_AGENTS_DIR); a missing or broken install is
 * EXECUTION.AGENT_UNAVAILABLE naming the command that fixes it.
 *
 * Layout: `<agentsDir>/<name>/switchyard-agent.json` per prefix, `node` being the runtime:
 *   { "name", "package", "version", "entry": "<path relative to the prefix>", "kind": "native" | "node" }
 */
import { accessSync, constants, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { AppError } from "../errors";

export const AGENT_IDS = ["claude", "codex", "gemini", "opencode"] as const;
export type AgentId = (typeof AGENT_IDS)[number];

/** The stamp each prefix of the agents folder holds. */
export const AGENT_STAMP_FILE = "switchyard-agent.json";
/** The prefix of the Node runtime the CLIs run under. */
export const AGENT_RUNTIME = "node";

const AGENT_LABELS: Record<AgentId, string> = {
  claude: "Claude Code",
  codex: "Codex",
  gemini: "Gemini CLI",
  opencode: "OpenCode",
};

const stampSchema = z.object({
  name: z.string(),
  package: z.string(),
  version: z.string(),
  entry: z.string().min(1),
  kind: z.enum(["native", "node"]),
});

export type LocatedAgent = {
  agent: AgentId;
  package: string;
  version: string;
  /** The program to spawn: the native binary, or the runtime's node for a script entry. */
  command: string;
  /** Arguments that go before the CLI's own: the entry script for a node entry, else none. */
  args: string[];
  /** The CLI's executable file (binary or script). */
  entry: string;
  /** The Node 22 runtime's binary. */
  node: string;
  /** The runtime's bin folder: first on the CLI's PATH, so whatever it starts with `node` gets Node 22. */
  pathPrefix: string;
};

export type LocateAgentOptions = {
  /** Require this exact version (a pin); another installed version is unavailable. */
  version?: string;
};

const unavailable = (agent: AgentId, agentsDir: string, why: string, cause?: unknown) =>
  new AppError(
    "EXECUTION.AGENT_UNAVAILABLE",
    `${AGENT_LABELS[agent]} is not available in ${agentsDir}: ${why}; run \`npm run agents:install -- --only ${agent}\``,
    { cause, details: { agent, agents_dir: agentsDir } },
  );

const readStamp = (agentsDir: string, name: string, agent: AgentId) => {
  const prefix = path.join(agentsDir, name);
  const file = path.join(prefix, AGENT_STAMP_FILE);
  let raw: string;
  try {
    raw = readFileSync(file, "utf8");
  } catch (cause) {
    throw unavailable(agent, agentsDir, `${file} is missing (not installed)`, cause);
  }
  let stamp: z.infer<typeof stampSchema>;
  try {
    stamp = stampSchema.parse(JSON.parse(raw));
  } catch (cause) {
    throw unavailable(agent, agentsDir, `${file} is not a valid install stamp`, cause);
  }
  const entry = path.resolve(prefix, stamp.entry);
  if (path.relative(prefix, entry).startsWith(".."))
    throw unavailable(agent, agentsDir, `${file} names an entry outside its folder`);
  try {
    accessSync(entry, constants.X_OK);
  } catch (cause) {
    throw unavailable(agent, agentsDir, `${entry} is missing or not executable`, cause);
  }
  return { ...stamp, entry };
};

/** Where an agent CLI is installed under `agentsDir`, and how to run it. */
export const locateAgent = (
  agentsDir: string,
  agent: AgentId,
  options: LocateAgentOptions = {},
): LocatedAgent => {
  if (!AGENT_IDS.includes(agent))
    throw new AppError("USER.INPUT.VALIDATION_FAILED", `unknown agent "${String(agent)}"`, {
      details: { known: AGENT_IDS },
    });
  if (!path.isAbsolute(agentsDir))
    throw unavailable(agent, agentsDir, "the agents folder must be an absolute path");
  const cli = readStamp(agentsDir, agent, agent);
  if (options.version !== undefined && cli.version !== options.version)
    throw unavailable(
      agent,
      agentsDir,
      `version ${cli.version} is installed, ${options.version} is required`,
    );
  const runtime = readStamp(agentsDir, AGENT_RUNTIME, agent);
  return {
    agent,
    package: cli.package,
    version: cli.version,
    command: cli.kind === "node" ? runtime.entry : cli.entry,
    args: cli.kind === "node" ? [cli.entry] : [],
    entry: cli.entry,
    node: runtime.entry,
    pathPrefix: path.dirname(runtime.entry),
  };
};
