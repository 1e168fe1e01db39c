/**
 * Which repository a github operation acts on: its `repo` input (`owner/repo`), else the
 * workspace's `origin` remote in any of git's URL forms (https, ssh, scp-like), as AWF
 * detects it.
 */
import { AppError } from "../errors/app-error";

export type RepoRef = { owner: string; repo: string };

const NAME = /^[A-Za-z0-9_.-]+$/;

const parseRepo = (text: string): RepoRef | undefined => {
  const [owner, repo, ...rest] = text.trim().split("/");
  if (rest.length || !owner || !repo || !NAME.test(owner) || !NAME.test(repo)) return undefined;
  return { owner, repo };
};

/** `owner/repo` from a remote URL: https://host/o/r(.git), ssh://git@host/o/r.git, git@host:o/r.git. */
const repoFromRemote = (remote: string): RepoRef | undefined => {
  const url = remote.trim();
  const scp = /^[^@/\s]+@[^:/\s]+:(?!\/)(.+)$/.exec(url);
  let path: string | undefined;
  if (scp) path = scp[1];
  else
    try {
      path = new URL(url).pathname;
    } catch {
      return undefined;
    }
  const cleaned = path!
    .replace(/^\/+/, "")
    .replace(/\/+$/, "")
    .replace(/\.git$/, "");
  return parseRepo(cleaned);
};

/** The `url` of `[remote "origin"]` in a git config file's text. */
export const originOfGitConfig = (config: string): string | undefined => {
  let inOrigin = false;
  for (const raw of config.split(/\r?\n/)) {
    const line = raw.trim();
    const section = /^\[\s*remote\s+"([^"]*)"\s*\]$/.exec(line);
    if (section) {
      inOrigin = section[1] === "origin";
      continue;
    }
    if (line.startsWith("[")) inOrigin = false;
    const url = inOrigin ? /^url\s*=\s*(.+)$/.exec(line) : null;
    if (url) return url[1]!.trim().replace(/^"(.*)"$/, "$1");
  }
  return undefined;
};

export const resolveRepo = async (
  input: unknown,
  gitRemote: () => Promise<string | undefined>,
): Promise<RepoRef> => {
  if (typeof input === "string" && input.trim() !== "") {
    const repo = parseRepo(input);
    if (!repo)
      throw new AppError(
        "USER.INPUT.VALIDATION_FAILED",
        `"repo" must be owner/repo, got "${input}"`,
      );
    return repo;
  }
  const remote = await gitRemote();
  const repo = remote === undefined ? undefined : repoFromRemote(remote);
  if (!repo)
    throw new AppError(
      "USER.INPUT.VALIDATION_FAILED",
      remote === undefined
        ? 'no "repo" input and the workspace has no git remote "origin" to take it from'
        : `no "repo" input and the workspace's git remote "origin" (${remote}) names no owner/repo`,
    );
  return repo;
};
