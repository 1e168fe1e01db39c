/**
 * Reads one folder of a git repository at a branch's head with the system git, for syncing
 * workflows from it. git runs in a fresh 0700 folder with an environment of its own: no
 * system or user configuration (so no credential helpers, hooks or proxies), no prompts, only
 * the one protocol the source needs, redirects off. The token reaches git as an
 * `http.extraHeader` in its environment, never on a command line, and is scrubbed from
 * anything git prints. An http(s) host is judged by the egress rule before git connects and
 * git is pinned to the address judged (curl's resolve list), so a second lookup that
 * answers elsewhere gains nothing. A local path is read only under a folder the instance
 * allows.
 */
import { mkdtemp, realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve, sep } from "node:path";
import { AppError } from "../errors";
import {
  checkEgressUrl,
  egressLookup,
  literalRefusal,
  systemResolveAll,
  type EgressAllowList,
  type ResolveAll,
} from "../egress";
import { removeFolder } from "../sandbox/fd-tree";
import { runProcess } from "../sandbox/run-process";
import { checkGitRef, checkGitFolder } from "./git-source-fields";

type GitFolderRequest = {
  url: string;
  branch: string;
  /** "" for the repository's root */
  folder: string;
  token?: string;
  username?: string;
  allow: EgressAllowList;
  /** folders under which a local repository may be read; none: local paths are refused */
  localRoots: readonly string[];
  resolveAll?: ResolveAll;
  timeoutMs?: number;
};

/** The folder's files (paths relative to it) at `commit`. */
type GitFolder = { commit: string; files: Record<string, string> };

const GIT_FOLDER_LIMITS = {
  files: 500,
  fileBytes: 1024 * 1024,
  totalBytes: 20 * 1024 * 1024,
};

const invalid = (message: string, field: string) =>
  new AppError("USER.GIT.INVALID_SOURCE", message, { location: { path: field } });

/** Whether the source is a local path rather than a URL. */
export const isLocalGitPath = (url: string) => url.startsWith("/");

const within = (path: string, base: string) =>
  path === base || path.startsWith(base.endsWith(sep) ? base : base + sep);

/**
 * A local repository's path refused in one way whether it is missing or elsewhere: a team's
 * admin learns nothing of which paths exist on the server outside the allowed folders.
 */
const notAllowed = (path: string) =>
  invalid(
    `${path} is not a repository folder this server allows (an operator allows folders in SWITCHYARD_GIT_LOCAL_ROOTS)`,
    "url",
  );

/** Refuses a local path outside every allowed folder, as written (before anything is read). */
export const checkLocalGitPath = (path: string, roots: readonly string[]) => {
  if (roots.length === 0)
    throw invalid(
      "local repositories are not allowed on this server (an operator allows folders in SWITCHYARD_GIT_LOCAL_ROOTS)",
      "url",
    );
  if (!roots.some((root) => within(resolve(path), resolve(root)))) throw notAllowed(path);
};

const localRepository = async (path: string, roots: readonly string[]) => {
  checkLocalGitPath(path, roots);
  // Then where it really is (a symbolic link may lead out of the folder).
  const real = await realpath(path).catch(() => undefined);
  if (real === undefined) throw notAllowed(path);
  for (const root of roots) {
    const base = await realpath(root).catch(() => undefined);
    if (base && within(real, base)) return real;
  }
  throw notAllowed(path);
};

/** The address git is pinned to for `url`'s host, judged by the egress rule now. */
const pinnedAddress = async (url: URL, allow: EgressAllowList, resolveAll: ResolveAll) => {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const literal = literalRefusal(allow, host, url.protocol);
  if (literal) throw literal;
  const lookup = egressLookup(allow, url.protocol, resolveAll);
  const address = await new Promise<string>((resolve, reject) =>
    lookup(host, { all: false }, (error, found) =>
      error
        ? reject(error instanceof AppError ? error : fetchFailed(error.message))
        : resolve(found as string),
    ),
  );
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return `${host}:${port}:${address.includes(":") ? `[${address}]` : address}`;
};

const fetchFailed = (message: string) =>
  new AppError("USER.GIT.FETCH_FAILED", message, { retryable: true });

/** git's words without the token, the header that carries it or anything past a few lines. */
const gitSaid = (stderr: string, secrets: string[]) => {
  let text = stderr;
  for (const s of secrets) if (s) text = text.split(s).join("***");
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(0, 6)
    .join("; ")
    .slice(0, 600);
};

type GitRun = (args: string[], options?: { cap?: number }) => Promise<string>;

const gitRunner = (
  cwd: string,
  env: Record<string, string>,
  secrets: string[],
  timeoutMs: number,
): GitRun => {
  return async (args, options = {}) => {
    const result = await runProcess({
      argv: ["git", ...args],
      cwd,
      env,
      timeoutMs,
      outputCap: options.cap ?? 1024 * 1024,
    });
    const command = `git ${args[0] === "-C" ? args[2] : args[0]}`;
    if (result.timedOut) throw fetchFailed(`${command} took longer than ${timeoutMs / 1000} s`);
    if (result.exitCode !== 0) {
      const said = gitSaid(result.stderr, secrets) || "no message";
      throw fetchFailed(
        /could not read (Username|Password)|Authentication failed|403/.test(said)
          ? `the repository refused access: give a token that may read it (${command}: ${said})`
          : `${command} failed: ${said}`,
      );
    }
    if (result.truncated)
      throw new AppError("USER.GIT.TOO_LARGE", `${command} answered more than the limit`);
    return result.stdout;
  };
};

/** The environment git runs with: nothing of the server's own (the system git and its helpers), the rest as configuration. */
const gitEnvironment = (home: string, config: [string, string][]) => {
  const env: Record<string, string> = {
    PATH: "/usr/local/bin:/usr/bin:/bin",
    HOME: home,
    LANG: "C",
    LC_ALL: "C",
    GIT_TERMINAL_PROMPT: "0",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_ASKPASS: "/bin/false",
    GIT_PROTOCOL_FROM_USER: "0",
    GIT_CONFIG_COUNT: String(config.length),
  };
  config.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
};

const listFolder = async (git: GitRun, folder: string) => {
  const listing = await git([
    "ls-tree",
    "-r",
    "-z",
    "-l",
    "FETCH_HEAD",
    ...(folder === "" ? [] : ["--", `${folder}/`]),
  ]);
  const entries: { oid: string; path: string; size: number }[] = [];
  let total = 0;
  for (const line of listing.split("\0").filter(Boolean)) {
    const tab = line.indexOf("\t");
    const [mode, type, oid, size] = line.slice(0, tab).split(/\s+/);
    const path = line.slice(tab + 1);
    // Files only: links, submodules and the like are not part of a workflow's bundle.
    if (type !== "blob" || (mode !== "100644" && mode !== "100755") || !oid) continue;
    const bytes = Number(size);
    const relative = folder === "" ? path : path.slice(folder.length + 1);
    if (bytes > GIT_FOLDER_LIMITS.fileBytes)
      throw new AppError("USER.GIT.TOO_LARGE", `${path} is over 1 MiB`, {
        location: { file: path },
      });
    total += bytes;
    entries.push({ oid, path: relative, size: bytes });
  }
  if (entries.length > GIT_FOLDER_LIMITS.files || total > GIT_FOLDER_LIMITS.totalBytes)
    throw new AppError(
      "USER.GIT.TOO_LARGE",
      `the folder holds ${entries.length} files, ${total} bytes: at most ${GIT_FOLDER_LIMITS.files} files and 20 MiB are synced`,
      { location: { path: "folder" } },
    );
  return entries;
};

/** Fetches the branch's head (one commit deep) and reads the folder's files from it. */
export const fetchGitFolder = async (request: GitFolderRequest): Promise<GitFolder> => {
  const branch = checkGitRef(request.branch);
  const folder = checkGitFolder(request.folder);
  const config: [string, string][] = [
    ["credential.helper", ""],
    ["core.hooksPath", "/dev/null"],
    ["http.followRedirects", "false"],
    ["http.proxy", ""],
    ["protocol.allow", "never"],
  ];
  const secrets: string[] = [];
  let remote: string;
  if (isLocalGitPath(request.url)) {
    remote = `file://${await localRepository(request.url, request.localRoots)}`;
    config.push(["protocol.file.allow", "always"]);
  } else {
    const url = checkEgressUrl(request.allow, request.url);
    config.push([`protocol.${url.protocol.replace(":", "")}.allow`, "always"]);
    config.push([
      "http.curloptResolve",
      await pinnedAddress(url, request.allow, request.resolveAll ?? systemResolveAll),
    ]);
    if (request.token) {
      const basic = Buffer.from(
        `${request.username || "x-access-token"}:${request.token}`,
      ).toString("base64");
      config.push(["http.extraHeader", `Authorization: Basic ${basic}`]);
      secrets.push(request.token, basic);
    }
    remote = url.href;
  }
  const home = await mkdtemp(join(tmpdir(), "switchyard-git-"));
  try {
    const git = gitRunner(home, gitEnvironment(home, config), secrets, request.timeoutMs ?? 60_000);
    await git(["init", "-q", "--bare", "repo"]);
    const repo = (args: string[], options?: { cap?: number }) =>
      git(["-C", "repo", ...args], options);
    await repo(["fetch", "-q", "--no-tags", "--depth", "1", remote, `refs/heads/${branch}`]);
    const commit = (await repo(["rev-parse", "FETCH_HEAD^{commit}"])).trim();
    const files: Record<string, string> = {};
    for (const entry of await listFolder(repo, folder))
      files[entry.path] = await repo(["cat-file", "blob", entry.oid], {
        cap: GIT_FOLDER_LIMITS.fileBytes + 1,
      });
    return { commit, files };
  } finally {
    await removeFolder(home).catch(() => undefined);
  }
};
