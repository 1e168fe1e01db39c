/**
 * No Docker engine runs in CI, so the compose file is checked by reading it: the four
 * services, their images and ports, and that every variable it uses is documented in
 * .env.example and covers what web and worker require at boot.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { workerEnvSchema } from "../apps/worker/src/env";
import { webEnvSchema } from "../apps/web/src/env";
import { REPO_ROOT } from "./helpers/worker-process";

type Service = {
  image?: string;
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

const requiredKeys = (schema: { shape: Record<string, { safeParse: (v: unknown) => { success: boolean } }> }) =>
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
});
