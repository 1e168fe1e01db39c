/**
 * A real git server for tests: bare repositories served over smart HTTP by git's own
 * `git http-backend`, behind a small Node CGI wrapper that asks for one Basic token (401
 * otherwise) and remembers each request's Authorization header. `commit` writes files into
 * a repository's branch from a working clone, as a person pushing would.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const BACKEND = "/usr/lib/git-core/git-http-backend";

const gitEnv = (home: string) => ({
  // Next.js's types (a browser test is type-checked with the web app) want NODE_ENV in every environment.
  NODE_ENV: "test" as const,
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: home,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "Test",
  GIT_AUTHOR_EMAIL: "test@test.local",
  GIT_COMMITTER_NAME: "Test",
  GIT_COMMITTER_EMAIL: "test@test.local",
});

export type GitServer = {
  /** http://<host>:<port>/<name>.git */
  url: (name: string) => string;
  /** the bare repository's folder on this machine, and the folder every one is in */
  path: (name: string) => string;
  root: string;
  /** every Authorization header the server was sent, in order (null: none) */
  seenAuth: (string | null)[];
  /** creates the bare repository `name` with `files` on `branch`; answers the commit id */
  create: (name: string, files: Record<string, string>, branch?: string) => string;
  /** a commit on `branch` that writes `files` (null: deletes the file); answers its id */
  commit: (name: string, files: Record<string, string | null>, branch?: string) => string;
  close: () => Promise<void>;
};

/** `token`: what the Basic password must be (any user name); none: no authentication asked. */
export const startGitServer = async (host: string, token?: string): Promise<GitServer> => {
  const root = mkdtempSync(join(tmpdir(), "git-server-"));
  const home = join(root, "home");
  mkdirSync(home);
  const seenAuth: (string | null)[] = [];
  const server: Server = createServer((req, res) => {
    const auth = req.headers.authorization ?? null;
    seenAuth.push(auth);
    const password = auth?.startsWith("Basic ")
      ? Buffer.from(auth.slice(6), "base64").toString().split(":").slice(1).join(":")
      : undefined;
    if (token !== undefined && password !== token) {
      res.writeHead(401, { "www-authenticate": 'Basic realm="test"' });
      return res.end("unauthorized\n");
    }
    const url = new URL(req.url ?? "/", "http://x");
    const cgi = spawn(BACKEND, [], {
      env: {
        ...gitEnv(home),
        GIT_PROJECT_ROOT: join(root, "repos"),
        GIT_HTTP_EXPORT_ALL: "1",
        REQUEST_METHOD: req.method ?? "GET",
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers["content-type"] ?? "",
        ...(req.headers["content-length"] ? { CONTENT_LENGTH: req.headers["content-length"] } : {}),
        ...(req.headers["content-encoding"]
          ? { HTTP_CONTENT_ENCODING: req.headers["content-encoding"] }
          : {}),
        ...(req.headers["git-protocol"]
          ? { GIT_PROTOCOL: String(req.headers["git-protocol"]) }
          : {}),
        REMOTE_USER: "test",
        REMOTE_ADDR: "127.0.0.1",
      },
    });
    req.pipe(cgi.stdin);
    let head = Buffer.alloc(0);
    let headerDone = false;
    cgi.stdout.on("data", (chunk: Buffer) => {
      if (headerDone) return void res.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) return;
      headerDone = true;
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, end).toString().split("\r\n")) {
        const colon = line.indexOf(":");
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === "status") status = Number(value.split(" ")[0]);
        else headers[name] = value;
      }
      res.writeHead(status, headers);
      res.write(head.subarray(end + 4));
    });
    cgi.on("close", () => res.end());
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  const git = (cwd: string, ...args: string[]) =>
    execFileSync("git", args, { cwd, env: gitEnv(home), encoding: "utf8" }).trim();
  const bare = (name: string) => join(root, "repos", `${name}.git`);
  const commit: GitServer["commit"] = (name, files, branch = "main") => {
    const work = mkdtempSync(join(root, "work-"));
    try {
      git(work, "clone", "-q", "--branch", branch, bare(name), ".");
      for (const [path, content] of Object.entries(files)) {
        if (content === null) git(work, "rm", "-q", path);
        else {
          mkdirSync(dirname(join(work, path)), { recursive: true });
          writeFileSync(join(work, path), content);
          git(work, "add", path);
        }
      }
      git(work, "commit", "-q", "-m", "change");
      git(work, "push", "-q", "origin", branch);
      return git(work, "rev-parse", "HEAD");
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  };
  return {
    url: (name) => `http://${host}:${port}/${name}.git`,
    path: bare,
    root: join(root, "repos"),
    seenAuth,
    create: (name, files, branch = "main") => {
      mkdirSync(bare(name), { recursive: true });
      git(bare(name), "init", "-q", "--bare", "--initial-branch", branch);
      const work = mkdtempSync(join(root, "work-"));
      try {
        git(work, "init", "-q", "--initial-branch", branch);
        for (const [path, content] of Object.entries(files)) {
          mkdirSync(dirname(join(work, path)), { recursive: true });
          writeFileSync(join(work, path), content);
        }
        git(work, "add", "-A");
        git(work, "commit", "-q", "-m", "first");
        git(work, "push", "-q", bare(name), `${branch}:${branch}`);
        return git(work, "rev-parse", "HEAD");
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    },
    commit,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      rmSync(root, { recursive: true, force: true });
    },
  };
};
