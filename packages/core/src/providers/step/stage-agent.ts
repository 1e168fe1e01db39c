/**
 * Puts an installed agent CLI (and the Node runtime it runs under) where a step uid can
 * reach it: bubblewrap resolves a bind's source as the step uid, which cannot enter an
 * agents folder under /root or another private folder. The staged copy is a tree of hard
 * links (a copy where the file system refuses links) in the worker's own traversable
 * folder, made once per installed version: built aside, then renamed into place, so
 * concurrent steps never see half of it. Files stay root's and read-only to the step.
 * Step processes find it at AGENTS_INSIDE, or where it is at level `none` (agentAt).
 */
import {
  chmod,
  copyFile,
  link,
  lstat,
  mkdir,
  readdir,
  readlink,
  rename,
  rm,
  stat,
  symlink,
} from "node:fs/promises";
import path from "node:path";
import type { SandboxBind } from "../../sandbox";
import { installedVersionIn } from "../agent-versions";
import { AGENT_RUNTIME, locateAgent, type AgentId, type LocatedAgent } from "../locate-agent";

/** Where the staged folder is bound inside the sandbox. */
export const AGENTS_INSIDE = "/opt/agents";

export type StagedAgent = {
  /** The staged folder on the host, bound read-only at AGENTS_INSIDE (agentBind). */
  hostDir: string;
  /** The agent on the host: every path under hostDir. */
  located: LocatedAgent;
  /** The CLI's version as its installed package.json says (the stamp's when that is unreadable). */
  version: string;
};

const linkTree = async (from: string, to: string): Promise<void> => {
  await mkdir(to, { recursive: true, mode: 0o755 });
  await chmod(to, 0o755);
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) await linkTree(source, target);
    else if (entry.isSymbolicLink()) await symlink(await readlink(source), target);
    else if (entry.isFile())
      await link(source, target).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== "EXDEV" && error.code !== "EPERM") throw error;
        await copyFile(source, target);
        await chmod(target, (await lstat(source)).mode & 0o755);
      });
  }
};

/** `located` (every path under `from`) with its paths under `to` instead. */
const moved = (located: LocatedAgent, from: string, to: string): LocatedAgent => {
  const move = (p: string) => path.posix.join(to, path.relative(from, p).split(path.sep).join("/"));
  return {
    ...located,
    command: move(located.command),
    args: located.args.map(move),
    entry: move(located.entry),
    node: move(located.node),
    pathPrefix: move(located.pathPrefix),
  };
};

/** The version the CLI's installed package.json says, else its stamp's. */
const packageVersion = (agentsDir: string, located: LocatedAgent) =>
  installedVersionIn(path.join(agentsDir, located.agent), located.package) ?? located.version;

/** The staged folder as a step's sandbox holds it: read-only at AGENTS_INSIDE. */
export const agentBind = (agent: StagedAgent): SandboxBind => ({
  path: agent.hostDir,
  mode: "ro",
  target: AGENTS_INSIDE,
});

/**
 * The agent as a step's processes see it, `where` being where agentBind appears to them
 * (the sandbox's pathInside: AGENTS_INSIDE when confined, the host folder at level `none`).
 */
export const agentAt = (agent: StagedAgent, where: string): LocatedAgent =>
  moved(agent.located, agent.hostDir, where);

/**
 * The agents folder itself, bound as it is: for a step that runs as the caller's own uid
 * (`switchyard run` without root), which can read it where it is.
 */
export const agentInPlace = (agentsDir: string, agent: AgentId, version?: string): StagedAgent => {
  const located = locateAgent(agentsDir, agent, version === undefined ? {} : { version });
  return { hostDir: agentsDir, located, version: packageVersion(agentsDir, located) };
};

/**
 * A tree of hard links of `from` at `target` (root's files, read-only to step uids), made
 * once: built aside, then renamed into place, so concurrent callers never see half of it.
 * Returns false when `target` was already there.
 */
export const stageTree = async (from: string, target: string): Promise<boolean> => {
  if (await stat(target).catch(() => undefined)) return false;
  await mkdir(path.dirname(target), { recursive: true, mode: 0o711 });
  const aside = `${target}.${process.pid}.${Date.now()}`;
  try {
    await linkTree(from, aside);
    await rename(aside, target).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOTEMPTY" && error.code !== "EEXIST") throw error;
    });
  } finally {
    await rm(aside, { recursive: true, force: true });
  }
  return true;
};

/**
 * Stages `agent` (as locateAgent found it in `agentsDir`) and the runtime under
 * `<stageRoot>/<agent>-<version>`; returns the staged folder and the agent's paths in it.
 */
export const stageAgent = async (
  agentsDir: string,
  agent: AgentId,
  stageRoot: string,
  version?: string,
): Promise<StagedAgent> => {
  const located = locateAgent(agentsDir, agent, version === undefined ? {} : { version });
  const runtime = await stat(located.node);
  const installed = packageVersion(agentsDir, located);
  const target = path.join(stageRoot, `${agent}-${installed}-${Math.floor(runtime.mtimeMs)}`);
  const staged = {
    hostDir: target,
    located: moved(located, agentsDir, target),
    version: installed,
  };
  if (await stat(path.join(target, agent)).catch(() => undefined)) return staged;
  await mkdir(stageRoot, { recursive: true, mode: 0o711 });
  const aside = `${target}.${process.pid}.${Date.now()}`;
  try {
    await mkdir(aside, { mode: 0o755 });
    await chmod(aside, 0o755);
    await linkTree(path.join(agentsDir, AGENT_RUNTIME), path.join(aside, AGENT_RUNTIME));
    await linkTree(path.join(agentsDir, agent), path.join(aside, agent));
    await rename(aside, target).catch((error: NodeJS.ErrnoException) => {
      // Another step staged the same install first.
      if (error.code !== "ENOTEMPTY" && error.code !== "EEXIST") throw error;
    });
  } finally {
    await rm(aside, { recursive: true, force: true });
  }
  return staged;
};
