import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { readWorkerEnv } from "./env";

const MAIN = path.join(path.dirname(fileURLToPath(import.meta.url)), "main.ts");
const good = {
  DATABASE_URL: "postgresql://u:p@127.0.0.1:5432/db",
  REDIS_URL: "redis://:p@127.0.0.1:6379/0",
  SWITCHYARD_MASTER_KEY: Buffer.alloc(32, 7).toString("base64"),
};

const boot = (env: Record<string, string>) =>
  spawnSync(process.execPath, ["--import", "tsx", MAIN], {
    env: { PATH: process.env.PATH, ...env },
    encoding: "utf8",
    timeout: 30_000,
  });

it("accepts a complete environment and fills defaults", () => {
  const env = readWorkerEnv(good);
  expect(env.WORKER_CONCURRENCY).toBe(4);
  expect(env.SWITCHYARD_QUEUE_PREFIX).toBe("switchyard");
  expect(env.SWITCHYARD_MODEL_PRICES).toEqual({});
});

it("reads model prices as JSON, empty as none, and names a bad table", () => {
  expect(readWorkerEnv({ ...good, SWITCHYARD_MODEL_PRICES: "" }).SWITCHYARD_MODEL_PRICES).toEqual(
    {},
  );
  expect(
    readWorkerEnv({ ...good, SWITCHYARD_MODEL_PRICES: '{"m-1": {"input": 1, "output": 2}}' })
      .SWITCHYARD_MODEL_PRICES,
  ).toEqual({
    "m-1": { input: 1, output: 2 },
  });
  expect(() => readWorkerEnv({ ...good, SWITCHYARD_MODEL_PRICES: "{nope" })).toThrow(
    /SWITCHYARD_MODEL_PRICES: not a price table/,
  );
  expect(() =>
    readWorkerEnv({ ...good, SWITCHYARD_MODEL_PRICES: '{"m": {"input": -1, "output": 2}}' }),
  ).toThrow(/SWITCHYARD_MODEL_PRICES/);
});

it("names every bad or missing variable", () => {
  expect(() => readWorkerEnv({ ...good, DATABASE_URL: "mysql://x" })).toThrow(
    /DATABASE_URL: must be a postgresql:/,
  );
  expect(() => readWorkerEnv({ DATABASE_URL: good.DATABASE_URL })).toThrow(/REDIS_URL: is not set/);
  expect(() => readWorkerEnv({ ...good, WORKER_CONCURRENCY: "0" })).toThrow(/WORKER_CONCURRENCY/);
  expect(() => readWorkerEnv({ ...good, SWITCHYARD_MASTER_KEY: "c2hvcnQ=" })).toThrow(
    /SWITCHYARD_MASTER_KEY: must be 32 random bytes/,
  );
});

it("stops the worker process at boot when DATABASE_URL is malformed, naming it", () => {
  const result = boot({ ...good, DATABASE_URL: "not a url" });
  expect(result.status).toBe(1);
  expect(result.stderr).toContain("DATABASE_URL: must be a postgresql://");
});

it("stops the worker process at boot when DATABASE_URL points nowhere, naming it", () => {
  const result = boot({ ...good, DATABASE_URL: "postgresql://u:p@127.0.0.1:1/db" });
  expect(result.status).toBe(1);
  expect(result.stderr).toContain("DATABASE_URL: cannot connect to 127.0.0.1:1/db");
  expect(result.stderr).not.toContain(":p@");
});
