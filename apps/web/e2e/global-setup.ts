/**
 * Browser-test stack: a fresh database cloned from the migrated template and seeded, a
 * real worker on a random queue prefix, and the built dashboard (`next start`). Returns
 * the teardown that stops both and drops the database. The worker's openai_compatible
 * steps may call a scripted model on E2E_MODEL_PORT, which a spec starts with its script.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createDb } from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { freshDatabase } from "@switchyard/testing/db";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";
import { startOidcIssuer } from "@switchyard/testing/oauth";
import { writeEchoConnector } from "./echo-connector";

/** What the web app of the browser tests may reach on a user's behalf. */
const E2E_WEB_EGRESS_ALLOW = "127.0.0.2/32";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

const waitForOutput = (child: ChildProcess, needle: string, what: string) =>
  new Promise<void>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`${what} not ready in 60 s:\n${out}`)), 60_000);
    const on = (c: Buffer) => {
      out += c.toString();
      if (out.includes(needle)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", on);
    child.stderr?.on("data", on);
    child.once("exit", (code) => reject(new Error(`${what} exited with ${code}:\n${out}`)));
  });

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });

const stop = async (child: ChildProcess) => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  const t = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(t);
};

export default async function globalSetup() {
  const database = await freshDatabase();
  const db = createDb(database.url, { max: 2 });
  const password = `e2e-${Math.random().toString(36).slice(2)}`;
  await seed(db, { adminEmail: "admin@e2e.local", adminPassword: password });
  await db.$disconnect();
  // Specs that need more than the demo team and its admin add it to this database.
  process.env.E2E_DATABASE_URL = database.url;
  process.env.E2E_ADMIN_EMAIL = "admin@e2e.local";
  process.env.E2E_ADMIN_PASSWORD = password;
  process.env.E2E_MODEL_PORT = String(await freePort());
  // The built-in demo model the worker serves (first-start.spec.ts seeds the demo agent on it).
  process.env.E2E_DEMO_MODEL_PORT = String(await freePort());

  // A spec that starts a second worker (triggers.spec.ts) joins the same queues.
  process.env.E2E_QUEUE_PREFIX = `sy-e2e-${Math.random().toString(36).slice(2, 8)}`;
  const workspaces = await mkdtemp(path.join(tmpdir(), "sy-e2e-ws-"));
  // The connectors folder stdio connectors run their programs from (connectors.spec.ts).
  const connectorsDir = await mkdtemp(path.join(tmpdir(), "sy-e2e-connectors-"));
  await writeEchoConnector(connectorsDir);
  // A real OpenID Connect issuer the login page offers beside passwords (oidc.spec.ts).
  const oidcSecret = `e2e-${Math.random().toString(36).slice(2)}`;
  const issuer = await startOidcIssuer({
    clientId: "switchyard-e2e",
    clientSecret: oidcSecret,
    // Next.js names a loopback request's host "localhost" (NextURL), so the auth routes see
    // the callback there; oidc.spec.ts drives the app at localhost for the whole round trip.
    redirectUris: [`http://localhost:${process.env.E2E_PORT}/api/auth/callback/oidc`],
  });
  process.env.E2E_OIDC_ISSUER = issuer.issuer;
  const env = {
    ...process.env,
    DATABASE_URL: database.url,
    SWITCHYARD_QUEUE_PREFIX: process.env.E2E_QUEUE_PREFIX,
    SWITCHYARD_WORKSPACES_DIR: workspaces,
    SWITCHYARD_WORKER_ID: `e2e-${Math.random().toString(36).slice(2, 8)}`,
    SWITCHYARD_STEP_UID_BASE: String(900_000 + Math.floor(Math.random() * 1000) * 16),
    SWITCHYARD_CONNECTORS_MAX: "8",
    SWITCHYARD_CONNECTORS_DIR: connectorsDir,
    SWITCHYARD_MODEL_ENDPOINTS: `http://127.0.0.1:${process.env.E2E_MODEL_PORT}/v1`,
    SWITCHYARD_DEMO_MODEL_PORT: process.env.E2E_DEMO_MODEL_PORT,
    // The worker's model, connectors and notification receivers are on loopback.
    SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW,
    SWITCHYARD_OIDC_ISSUER: issuer.issuer,
    SWITCHYARD_OIDC_CLIENT_ID: "switchyard-e2e",
    SWITCHYARD_OIDC_CLIENT_SECRET: oidcSecret,
    SWITCHYARD_OIDC_NAME: "Test IdP",
  };
  const worker = spawn(process.execPath, ["--import", "tsx", "apps/worker/src/main.ts"], {
    cwd: ROOT,
    env,
  });
  // The web app reaches only what connector-oauth.spec.ts puts on 127.0.0.2: 127.0.0.1 stands
  // for the internal network it must not reach on a user's behalf.
  const web = spawn(
    process.execPath,
    [
      path.join(ROOT, "node_modules/next/dist/bin/next"),
      "start",
      "-p",
      process.env.E2E_PORT!,
      "-H",
      "127.0.0.1",
    ],
    {
      cwd: path.join(ROOT, "apps/web"),
      env: { ...env, SWITCHYARD_EGRESS_ALLOW: E2E_WEB_EGRESS_ALLOW },
    },
  );
  await Promise.all([
    waitForOutput(worker, '"worker ready"', "worker"),
    waitForOutput(web, "Ready in", "web"),
  ]);

  return async () => {
    await Promise.all([stop(worker), stop(web)]);
    await issuer.close();
    await database.drop();
    await rm(workspaces, { recursive: true, force: true });
    await rm(connectorsDir, { recursive: true, force: true });
  };
}
