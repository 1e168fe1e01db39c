/**
 * Web and worker check the variables they share the same way, with the same message.
 */
import { describe, expect, it } from "vitest";
import { readWorkerEnv } from "../apps/worker/src/env";
import { webEnvSchema } from "../apps/web/src/env";

const key = Buffer.alloc(32, 7).toString("base64");
const good = {
  DATABASE_URL: "postgresql://u:p@127.0.0.1:5432/db",
  REDIS_URL: "redis://:p@127.0.0.1:6379/0",
  SWITCHYARD_MASTER_KEY: key,
  AUTH_SECRET: "x".repeat(32),
};

const webProblem = (env: Record<string, string>) => {
  const parsed = webEnvSchema.safeParse(env);
  return parsed.success
    ? ""
    : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("\n");
};
const workerProblem = (env: Record<string, string>) => {
  try {
    readWorkerEnv(env);
    return "";
  } catch (e) {
    return (e as Error).message.replace(/^invalid environment:\n/, "").replace(/^ {2}/gm, "");
  }
};

describe("shared environment variables", () => {
  it.each([
    ["DATABASE_URL", "postgresql://@/db", /^DATABASE_URL: must be a postgresql:\/\//],
    ["DATABASE_URL", "postgresql://u:p@db:5432/", /^DATABASE_URL: must be a postgresql:\/\//],
    ["REDIS_URL", "redis://", /^REDIS_URL: must be a redis:\/\//],
    ["SWITCHYARD_MASTER_KEY", "c2hvcnQ=", /^SWITCHYARD_MASTER_KEY: must be 32 random bytes/],
    ["SWITCHYARD_MASTER_KEYS_RETIRED", "k0", /^SWITCHYARD_MASTER_KEYS_RETIRED: must be id:base64/],
    ["SWITCHYARD_QUEUE_PREFIX", "has space", /^SWITCHYARD_QUEUE_PREFIX: /],
    ["LOG_LEVEL", "loud", /^LOG_LEVEL: /],
    [
      "SWITCHYARD_EGRESS_ALLOW",
      "10.0.0.0/8,http://intranet",
      /^SWITCHYARD_EGRESS_ALLOW: "http:\/\/intranet" is neither an address, a CIDR nor a host name/,
    ],
    [
      "SWITCHYARD_EGRESS_ALLOW",
      "10.0.0.0/40",
      /^SWITCHYARD_EGRESS_ALLOW: "10.0.0.0\/40" has a prefix length out of range/,
    ],
  ])("%s=%s is refused by both apps with the same message", (name, value, message) => {
    const env = { ...good, [name]: value };
    expect(webProblem(env)).toMatch(message);
    expect(workerProblem(env)).toBe(webProblem(env));
  });

  it("both read retired master keys and default the key id and queue prefix", () => {
    const env = { ...good, SWITCHYARD_MASTER_KEYS_RETIRED: `k0:${key}` };
    const web = webEnvSchema.parse(env);
    const worker = readWorkerEnv(env);
    expect(web.SWITCHYARD_MASTER_KEYS_RETIRED).toEqual([{ id: "k0", key }]);
    expect(worker.SWITCHYARD_MASTER_KEYS_RETIRED).toEqual(web.SWITCHYARD_MASTER_KEYS_RETIRED);
    expect([web.SWITCHYARD_MASTER_KEY_ID, web.SWITCHYARD_QUEUE_PREFIX]).toEqual([
      "k1",
      "switchyard",
    ]);
  });
});
