/**
 * A PostgreSQL or Redis server of a test's own, to restart under a running worker without
 * touching the suite's shared ones: the same Debian binaries and settings scripts/services.sh
 * uses (scram passwords, fsync off; Redis with a password and no persistence), a data folder
 * in a temp dir, free ports on 127.0.0.1. As root, PostgreSQL runs as the `postgres` user.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

const root = process.getuid?.() === 0;

/** A port nobody listens on now (the kernel's pick, then released). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

const pgBin = () => {
  for (const v of readdirSync("/usr/lib/postgresql").sort().reverse()) {
    const bin = `/usr/lib/postgresql/${v}/bin`;
    if (existsSync(`${bin}/pg_ctl`)) return bin;
  }
  throw new Error(
    "PostgreSQL binaries not found under /usr/lib/postgresql (apt-get install postgresql)",
  );
};

const pgUid = () => {
  const id = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
  const gid = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
  return { uid: Number(id.stdout.trim()), gid: Number(gid.stdout.trim()) };
};

const asPg = (args: string[]) => {
  const [cmd, ...rest] = root ? ["runuser", "-u", "postgres", "--", ...args] : args;
  const r = spawnSync(cmd!, rest, { encoding: "utf8", cwd: "/", timeout: 60_000 });
  if (r.status !== 0)
    throw new Error(`${args.join(" ")} failed (${r.status}): ${r.stderr || r.stdout}`);
  return r.stdout;
};

export type PrivatePostgres = {
  /** postgresql://… of its `postgres` database, with its password. */
  url: string;
  port: number;
  /** Stops it (fast: sessions are cut, as in a restart) and keeps it down `downMs`, then starts it again. */
  restart: (downMs?: number) => Promise<void>;
  stop: () => Promise<void>;
};

export const startPrivatePostgres = async (): Promise<PrivatePostgres> => {
  const bin = pgBin();
  // /var/tmp: the postgres user must be able to enter every folder above its data.
  const home = mkdtempSync(path.join("/var/tmp", "sy-chaos-pg-"));
  const data = path.join(home, "data");
  const password = randomBytes(12).toString("hex");
  const port = await freePort();
  const pwfile = path.join(home, "pwfile");
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (root) {
    const { uid, gid } = pgUid();
    chownSync(home, uid, gid);
    chownSync(pwfile, uid, gid);
  }
  chmodSync(home, 0o700);
  asPg([
    `${bin}/initdb`,
    "-D",
    data,
    "-U",
    "postgres",
    `--pwfile=${pwfile}`,
    "--auth-local=scram-sha-256",
    "--auth-host=scram-sha-256",
    "-E",
    "UTF8",
    "--locale=C.UTF-8",
  ]);
  rmSync(pwfile, { force: true });
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${home} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=100`;
  const start = () =>
    asPg([
      `${bin}/pg_ctl`,
      "-D",
      data,
      "-l",
      path.join(home, "postgres.log"),
      "-w",
      "-t",
      "60",
      "-o",
      options,
      "start",
    ]);
  const stop = (mode: "fast" | "immediate") =>
    asPg([`${bin}/pg_ctl`, "-D", data, "-m", mode, "-w", "stop"]);
  start();
  return {
    url: `postgresql://postgres:${password}@127.0.0.1:${port}/postgres`,
    port,
    restart: async (downMs = 0) => {
      stop("fast");
      await new Promise((r) => setTimeout(r, downMs));
      start();
    },
    stop: async () => {
      try {
        stop("immediate");
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    },
  };
};

export type PrivateRedis = {
  /** redis://:password@127.0.0.1:port/0 */
  url: string;
  port: number;
  /** Kills it (SIGKILL: no chance to save anything) and keeps it down `downMs`, then starts it again, empty. */
  restart: (downMs?: number) => Promise<void>;
  stop: () => Promise<void>;
};

export const startPrivateRedis = async (): Promise<PrivateRedis> => {
  const dir = mkdtempSync(path.join("/var/tmp", "sy-chaos-redis-"));
  const password = randomBytes(12).toString("hex");
  const port = await freePort();
  const conf = path.join(dir, "redis.conf");
  writeFileSync(
    conf,
    [
      "bind 127.0.0.1",
      `port ${port}`,
      `requirepass ${password}`,
      'save ""',
      "appendonly no",
      "daemonize no",
      `dir ${dir}`,
      "maxmemory-policy noeviction",
      "",
    ].join("\n"),
    { mode: 0o600 },
  );
  let server: ChildProcess | undefined;
  const start = async () => {
    const child = spawn("redis-server", [conf], { stdio: ["ignore", "pipe", "pipe"] });
    server = child;
    let out = "";
    child.stdout?.on("data", (c: Buffer) => (out += c.toString()));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`redis-server did not start:\n${out}`)),
        20_000,
      );
      const check = () => {
        if (out.includes("Ready to accept connections")) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout?.on("data", check);
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}:\n${out}`));
      });
    });
  };
  const kill = async () => {
    const child = server;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGKILL");
    await exited;
  };
  await start();
  return {
    url: `redis://:${password}@127.0.0.1:${port}/0`,
    port,
    restart: async (downMs = 0) => {
      await kill();
      await new Promise((r) => setTimeout(r, downMs));
      await start();
    },
    stop: async () => {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};
