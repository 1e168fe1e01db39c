/**
 * Puts an installed agent CLI (and the Node runtime it runs under) where a step uid can
 * reach it: bubblewrap resolves a bind's source as the step uid, which cannot enter an
 * agents folder under /root or another private folder. The staged copy is a tree of hard
 * links (a copy where the file system refuses links) in the worker's own traversable
 * folder, made once per installed version: built aside, then renamed into place, so
 * concurrent steps never see half of it. Files stay root's and read-only to the step.
 */
import { chmod, copyFile, link, lstat, mkdir, readdir, readlink, rename, rm, stat, symlink } from "node:fs/promises";
import path from "node:path";
import { AGENT_RUNTIME, locateAgent, type AgentId, type LocatedAgent } from "../locate-agent";

/** Where the staged folder is bound inside the sandbox. */
export const AGENTS_INSIDE = "/opt/agents";

export type StagedAgent = {
  /** The staged folder on the host (bind it read-only at AGENTS_INSIDE). */
  hostDir: string;
  /** The agent as the step sees it: every path under AGENTS_INSIDE. */
  inside: LocatedAgent;
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

const insidePath = (agentsDir: string, hostPath: string) =>
  path.posix.join(AGENTS_INSIDE, path.relative(agentsDir, hostPath).split(path.sep).join("/"));

const insideOf = (agentsDir: string, located: LocatedAgent): LocatedAgent => ({
  ...located,
  command: insidePath(agentsDir, located.command),
  args: located.args.map((a) => insidePath(agentsDir, a)),
  entry: insidePath(agentsDir, located.entry),
  node: insidePath(agentsDir, located.node),
  pathPrefix: insidePath(agentsDir, located.pathPrefix),
});

/**
 * The agents folder itself, bound as it is: for a step that runs as the caller's own uid
 * (`switchyard run` without root), which can read it where it is.
 */
export const agentInPlace = (agentsDir: string, agent: AgentId, version?: string): StagedAgent => ({
  hostDir: agentsDir,
  inside: insideOf(agentsDir, locateAgent(agentsDir, agent, version === undefined ? {} : { version })),
});

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
 * `<stageRoot>/<agent>-<version>`; returns the staged folder and the agent's paths inside.
 */
export const stageAgent = async (agentsDir: string, agent: AgentId, stageRoot: string, version?: string): Promise<StagedAgent> => {
  const located = locateAgent(agentsDir, agent, version === undefined ? {} : { version });
  const runtime = await stat(located.node);
  const target = path.join(stageRoot, `${agent}-${located.version}-${Math.floor(runtime.mtimeMs)}`);
  const inside = insideOf(agentsDir, located);
  if (await stat(path.join(target, agent)).catch(() => undefined)) return { hostDir: target, inside };
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
  return { hostDir: target, inside };
};
