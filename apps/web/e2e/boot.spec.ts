import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const NEXT = path.join(WEB, "../../node_modules/next/dist/bin/next");

const boot = (env: Record<string, string>) =>
  spawnSync(process.execPath, [NEXT, "start", "-p", "0", "-H", "127.0.0.1"], {
    cwd: WEB,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      REDIS_URL: "redis://127.0.0.1:1",
      ...env,
    },
    encoding: "utf8",
    timeout: 30_000,
  });

test("the web server stops at boot naming a malformed DATABASE_URL", () => {
  const result = boot({ AUTH_SECRET: "x".repeat(40), DATABASE_URL: "mysql://nope" });
  expect(result.status).toBe(1);
  expect(result.stderr).toContain("DATABASE_URL: must be a postgresql://");
});

test("the web server stops at boot naming a missing AUTH_SECRET", () => {
  const result = boot({ DATABASE_URL: "postgresql://u:p@127.0.0.1:1/db" });
  expect(result.status).toBe(1);
  expect(result.stderr).toContain("AUTH_SECRET: is not set");
});
