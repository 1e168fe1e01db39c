/**
 * No Docker engine runs in CI, so the compose file is checked by reading it: the four
 * services, their images and ports, that every variable it uses is documented in
 * .env.example and covers what web and worker require at boot, that Redis keeps BullMQ's
 * queue, and that `--scale worker=N` cannot clash: no fixed name, port, id or uid range on the
 * worker, and the slot claim of scripts/container.sh (run here for real) hands concurrent
 * workers disjoint uid ranges.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { workerEnvSchema } from "../apps/worker/src/env";
import { webEnvSchema } from "../apps/web/src/env";
import { REPO_ROOT } from "./helpers/worker-process";

type Service = {
  image?: string;
  container_name?: string;
  hostname?: string;
  volumes?: string[];
  build?: unknown;
  command?: string[];
  ports?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, unknown>;
};

const composeText = readFileSync(path.join(REPO_ROOT, "docker-compose.yml"), "utf8");
const compose = parse(composeText, { merge: true }) as { services: Record<string, Service> };
const example = readFileSync(path.join(REPO_ROOT, ".env.example"), "utf8");
const documented = new Set([...example.matchAll(/^([A-Z0-9_]+)=/gm)].map((m) => m[1]));

const requiredKeys = (schema: {
  shape: Record<string, { safeParse: (v: unknown) => { success: boolean } }>;
}) =>
  Object.entries(schema.shape)
    .filter(([, field]) => !field.safeParse(undefined).success)
    .map(([key]) => key);

describe("docker-compose.yml", () => {
  it("runs postgres, redis, web and worker", () => {
    expect(Object.keys(compose.services).sort()).toEqual(["postgres", "redis", "web", "worker"]);
    expect(compose.services.postgres!.image).toMatch(/^postgres:15/);
    expect(compose.services.redis!.image).toMatch(/^redis:7/);
    expect(compose.services.web!.build).toBe(".");
    expect(compose.services.worker!.build).toBe(".");
  });

  it("publishes every port on loopback only, on the ports .env chooses", () => {
    expect(compose.services.postgres!.ports).toEqual(["127.0.0.1:${SWITCHYARD_PG_PORT}:5432"]);
    expect(compose.services.redis!.ports).toEqual(["127.0.0.1:${SWITCHYARD_REDIS_PORT}:6379"]);
    expect(compose.services.web!.ports).toEqual(["127.0.0.1:${WEB_PORT}:3000"]);
    expect(compose.services.worker!.ports).toBeUndefined();
  });

  it("uses only variables that .env.example documents", () => {
    const used = new Set([...composeText.matchAll(/\$\{([A-Z0-9_]+)\}/g)].map((m) => m[1]));
    expect(used.size).toBeGreaterThan(5);
    expect([...used].filter((v) => !documented.has(v))).toEqual([]);
  });

  it("gives web and worker every variable they require at boot, with passwords on both services", () => {
    const webEnv = Object.keys(compose.services.web!.environment ?? {});
    const workerEnv = Object.keys(compose.services.worker!.environment ?? {});
    expect(requiredKeys(webEnvSchema).filter((k) => !webEnv.includes(k))).toEqual([]);
    expect(requiredKeys(workerEnvSchema).filter((k) => !workerEnv.includes(k))).toEqual([]);
    expect(compose.services.postgres!.environment?.POSTGRES_PASSWORD).toBe("${POSTGRES_PASSWORD}");
    expect(compose.services.redis!.command).toContain("--requirepass");
    expect(compose.services.web!.environment?.DATABASE_URL).toContain("@postgres:5432/");
  });

  it("documents every variable the apps read in .env.example", () => {
    const keys = [...Object.keys(webEnvSchema.shape), ...Object.keys(workerEnvSchema.shape)];
    expect(keys.filter((k) => !documented.has(k))).toEqual([]);
  });

  it("keeps BullMQ's queue across a Redis restart and never evicts its keys", () => {
    const command = compose.services.redis!.command!.join(" ");
    expect(command).toContain("--appendonly yes");
    expect(command).toContain("--appendfsync everysec");
    expect(command).toContain("--maxmemory-policy noeviction");
    expect(compose.services.redis!.volumes).toEqual(["redisdata:/data"]);
  });

  it("scales workers without a fixed name, host name, port, worker id or uid range", () => {
    const worker = compose.services.worker!;
    expect(worker.container_name).toBeUndefined();
    expect(worker.hostname).toBeUndefined();
    expect(worker.ports).toBeUndefined();
    expect(worker.environment?.SWITCHYARD_WORKER_ID).toBeUndefined();
    // the first slot's base only; scripts/container.sh moves each container to its slot's range
    expect(worker.environment?.SWITCHYARD_STEP_UID_BASE).toBe("${SWITCHYARD_STEP_UID_BASE}");
    expect(worker.command).toEqual(["bash", "scripts/container.sh", "worker"]);
    // the slot locks are shared; the workspaces are each container's own
    expect(worker.volumes).toEqual(["worker-slots:/var/lib/switchyard/slots"]);
    expect(worker.environment?.SWITCHYARD_WORKSPACES_DIR).toBe("/var/lib/switchyard/workspaces");
  });
});

/** Runs the worker slot claim of scripts/container.sh; it holds its slot until `release`. */
const claimSlot = async (slots: string, env: Record<string, string>) => {
  const child: ChildProcess = spawn(
    "bash",
    [
      "-c",
      'CONTAINER_SH_FUNCTIONS_ONLY=1 . scripts/container.sh && claim_worker_slot && echo "$SWITCHYARD_STEP_UID_BASE $SWITCHYARD_WORKER_ID" && read -r _',
    ],
    {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH, SWITCHYARD_SLOTS_DIR: slots, ...env },
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  let out = "";
  let err = "";
  child.stderr!.on("data", (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((r) => child.once("exit", r));
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      if (out.includes("\n")) resolve(out.trim());
    });
    void exited.then((code) => reject(new Error(`slot claim exited with ${code}: ${err}`)));
  });
  const [base, id] = line.split(" ");
  return {
    base: Number(base),
    id: id!,
    err,
    release: async () => {
      child.stdin!.end("\n");
      await exited;
    },
  };
};

describe("scripts/container.sh worker slots", () => {
  it("gives workers running at once disjoint step-uid ranges and frees a slot when its worker ends", async () => {
    const slots = await mkdtemp(path.join(tmpdir(), "sy-slots-"));
    const env = {
      SWITCHYARD_STEP_UID_BASE: "70000",
      WORKER_CONCURRENCY: "6",
      SWITCHYARD_CONNECTORS_MAX: "10",
    };
    try {
      const [a, b, c] = await Promise.all([
        claimSlot(slots, env),
        claimSlot(slots, env),
        claimSlot(slots, env),
      ]);
      const bases = [a.base, b.base, c.base].sort((x, y) => x - y);
      // 6 step uids and 10 connector uids each: slots 0, 1, 2 start 16 apart
      expect(bases).toEqual([70000, 70016, 70032]);
      expect(a.id).toMatch(/^worker-[A-Za-z0-9._-]+$/);
      expect(a.err).toMatch(/worker slot \d, step uids 700\d\d-700\d\d/);
      expect((await readdir(slots)).sort()).toEqual(["0.lock", "1.lock", "2.lock"]);

      const first = [a, b, c].find((w) => w.base === 70000)!;
      await first.release();
      const next = await claimSlot(slots, env);
      expect(next.base).toBe(70000);
      await Promise.all([next, ...[a, b, c].filter((w) => w !== first)].map((w) => w.release()));
    } finally {
      await rm(slots, { recursive: true, force: true });
    }
  });

  it("refuses to start a worker when every slot is taken, saying which variable to raise", async () => {
    const slots = await mkdtemp(path.join(tmpdir(), "sy-slots-"));
    try {
      const held = await claimSlot(slots, { SWITCHYARD_WORKER_SLOTS: "1" });
      await expect(claimSlot(slots, { SWITCHYARD_WORKER_SLOTS: "1" })).rejects.toThrow(
        /all 1 worker slots .* are taken; raise SWITCHYARD_WORKER_SLOTS/,
      );
      await held.release();
    } finally {
      await rm(slots, { recursive: true, force: true });
    }
  });
});
