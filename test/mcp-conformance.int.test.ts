/**
 * The MCP conformance suite (`@modelcontextprotocol/conformance`, client side) against
 * Switchyard's own connector path: for every client scenario the suite starts the scenario's
 * server and runs test/conformance/switchyard-client.mjs, which creates an http connector
 * through the web app's API, connects it with OAuth through the web app's begin and callback
 * routes, and calls a tool through the connector console, which a real worker runs in its
 * connector pool. The scenarios run at once, in one process of the suite (Node 22, the agent
 * CLIs' runtime), each with a short timeout. Exactly the scenarios of PASSING must pass: a
 * regression fails, and so does a scenario that starts to pass until it is added here and
 * to the table in docs/connectors.md.
 */
import { spawn } from "node:child_process";
import { readdir, readFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseEgressAllowList } from "@switchyard/core/egress";
import { createApiToken } from "@switchyard/db";
import { LOOPBACK_EGRESS_ALLOW } from "@switchyard/testing/egress";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webEgress } from "~/server/egress";
import { environmentKeyring } from "./helpers/dashboard-caller";
import { nodeRuntime } from "./helpers/node-runtime";
import { closeRunStack, openRunStack, type RunStack } from "./helpers/run-stack";
import { startSignInStandIn } from "./helpers/sign-in-stand-in";
import { startWebAppServer, type WebAppServer } from "./helpers/web-app-server";
import { REPO_ROOT } from "./helpers/worker-process";

/** The client scenarios Switchyard passes (docs/connectors.md, "MCP conformance", says why the rest do not). */
const PASSING = [
  "initialize",
  "tools_call",
  "sse-retry",
  "auth/metadata-default",
  "auth/metadata-var1",
  "auth/metadata-var2",
  "auth/metadata-var3",
  "auth/basic-cimd",
  "auth/scope-from-www-authenticate",
  "auth/scope-from-scopes-supported",
  "auth/scope-omitted-when-undefined",
  "auth/scope-step-up",
  "auth/scope-retry-limit",
  "auth/token-endpoint-auth-basic",
  "auth/token-endpoint-auth-post",
  "auth/token-endpoint-auth-none",
  "auth/pre-registration",
  "auth/2025-03-26-oauth-metadata-backcompat",
  "auth/2025-03-26-oauth-endpoint-fallback",
  "auth/resource-mismatch",
  "auth/offline-access-scope",
  "auth/offline-access-not-supported",
  "auth/cross-app-access-complete-flow",
  "auth/client-credentials-jwt",
  "auth/client-credentials-basic",
  "elicitation-sep1034-client-defaults",
];

/**
 * While working on a few scenarios: `SWITCHYARD_CONFORMANCE_ONLY=auth/basic-cimd,initialize`
 * grades only those, each in a run of its own, against PASSING restricted to them (the docs
 * table is not checked then).
 */
const ONLY = process.env.SWITCHYARD_CONFORMANCE_ONLY?.split(",").filter(Boolean);

/** The client id the suite's auth/basic-cimd scenario expects of a client that uses a document. */
const CIMD_URL = "https://conformance-test.local/client-metadata.json";

/** How long the client may take in one scenario (the suite's default is 30 s). */
const SCENARIO_TIMEOUT_MS = 15_000;

const SUITE = path.join(REPO_ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const CLIENT = path.join(REPO_ROOT, "test/conformance/switchyard-client.mjs");

type Check = { id: string; status: string; description: string; errorMessage?: string };
type Result = {
  scenario: string;
  revisions: string;
  passed: boolean;
  failed: Check[];
  /** what the client said last: how far Switchyard got */
  client: string;
};

let stack: RunStack;
let web: WebAppServer;
let signIn: Awaited<ReturnType<typeof startSignInStandIn>> | undefined;
let node: string;
let output: string;
const results = new Map<string, Result>();
let suiteLog = "";

const run = (args: string[], env: Record<string, string>) =>
  new Promise<{ code: number | null; out: string }>((resolve, reject) => {
    const child = spawn(node, [SUITE, ...args], { cwd: output, env, stdio: "pipe" });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (out += c.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, out }));
  });

/** Every client scenario of the suite and the spec revisions it belongs to ("2025-06-18,2025-11-25"). */
const listScenarios = async (env: Record<string, string>) => {
  const { out } = await run(["list", "--client"], env);
  return [...out.matchAll(/^\s+- (\S+) \[([^\]]+)\]$/gm)].map((m) => ({
    scenario: m[1]!,
    revisions: m[2]!,
  }));
};

/**
 * What the suite wrote under `dir` for each scenario (in `<scenario>-<timestamp>/`): its
 * checks, and the client's last line of its own (switchyard-client.mjs says each step).
 */
const readResults = async (dir: string) => {
  const found = new Map<string, { checks: Check[]; client: string }>();
  for (const entry of await readdir(dir, { recursive: true }).catch(() => [])) {
    if (path.basename(entry) !== "checks.json") continue;
    const folder = path.join(dir, path.dirname(entry));
    const scenario = path.dirname(entry).replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, "");
    const stderr = await readFile(path.join(folder, "stderr.txt"), "utf8").catch(() => "");
    found.set(scenario, {
      checks: JSON.parse(await readFile(path.join(dir, entry), "utf8")) as Check[],
      client:
        stderr
          .trim()
          .split("\n")
          .at(-1)
          ?.replace(/^switchyard-client: /, "") ?? "",
    });
  }
  return found;
};

/** Runs the suite's client side (`args` choose the scenarios) and reads what it wrote. */
const suiteRun = async (args: string[], name: string, env: Record<string, string>) => {
  const dir = path.join(output, name);
  const started = Date.now();
  const { out } = await run(
    [
      "client",
      ...args,
      "--timeout",
      String(SCENARIO_TIMEOUT_MS),
      "--output-dir",
      dir,
      "--command",
      `${node} ${CLIENT}`,
    ],
    env,
  );
  suiteLog += out;
  console.log(`[conformance] ${args.join(" ")}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return readResults(dir);
};

/** The scenario whose check is a deadline, and whether its only misses are that deadline. */
const TIMED = "sse-retry";
const lateOnly = (checks: Check[] | undefined) => {
  const missed = (checks ?? []).filter((c) => c.status === "FAILURE" || c.status === "WARNING");
  return missed.length > 0 && missed.every((c) => c.id === "client-sse-retry-timing");
};

beforeAll(async () => {
  node = nodeRuntime((line) => console.log(`[conformance] ${line}`));
  output = await mkdtemp(path.join(tmpdir(), "sy-conformance-"));
  stack = await openRunStack({
    SWITCHYARD_EGRESS_ALLOW: LOOPBACK_EGRESS_ALLOW,
    // A scenario's server stops only once the pool has let its connection go (an open
    // stream keeps it up).
    SWITCHYARD_CONNECTOR_IDLE_MS: "1000",
  });
  const egress = webEgress(parseEgressAllowList(LOOPBACK_EGRESS_ALLOW));
  const keyring = environmentKeyring();
  web = await startWebAppServer(() => ({ ...stack, keyring, egress }));
  // The callback the scenarios' authorization servers send the browser back to.
  process.env.AUTH_URL = web.origin;
  // Where the operator publishes Switchyard's client metadata document: the client id the
  // suite's CIMD scenario expects (its server checks the id and fetches nothing).
  process.env.SWITCHYARD_OAUTH_CLIENT_METADATA_URL = CIMD_URL;
  const { token } = await createApiToken(stack.db, {
    teamId: stack.teamId,
    userId: stack.adminId,
    name: "conformance",
  });
  // Cross-app access: the admin signs in through the scenario's IdP (it issues the ID token).
  signIn = await startSignInStandIn({ db: stack.db, keyring }, stack.adminId);
  const env = {
    SWITCHYARD_SIGN_IN_URL: signIn.url,
    PATH: `${path.dirname(node)}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    HOME: process.env.HOME ?? "/root",
    SWITCHYARD_WEB_URL: web.origin,
    SWITCHYARD_API_TOKEN: token,
  };
  const scenarios = (await listScenarios(env)).filter((s) => !ONLY || ONLY.includes(s.scenario));
  const burst = new Map<string, { checks: Check[]; client: string }>();
  if (ONLY) {
    for (const s of scenarios.filter((s) => s.scenario !== TIMED))
      for (const [k, v] of await suiteRun(["--scenario", s.scenario], s.scenario, env))
        burst.set(k, v);
  } else for (const [k, v] of await suiteRun(["--suite", "all"], "all", env)) burst.set(k, v);
  // Graded alone: its check is a deadline (reconnect 500 ms after the stream ends, 200 ms
  // late at most), which the burst of every scenario at once on a small machine can miss.
  // A client that ignores the server's retry field misses it every time.
  let alone = new Map<string, { checks: Check[]; client: string }>();
  if (!ONLY || ONLY.includes(TIMED)) alone = await suiteRun(["--scenario", TIMED], "alone-1", env);
  for (let attempt = 2; attempt <= 3 && lateOnly(alone.get(TIMED)?.checks); attempt++)
    alone = await suiteRun(["--scenario", TIMED], `alone-${attempt}`, env);
  const written = new Map([...burst, ...alone]);
  for (const { scenario, revisions } of scenarios) {
    const { checks, client } = written.get(scenario) ?? {
      checks: [{ id: scenario, status: "FAILURE", description: "the suite wrote no checks" }],
      client: "",
    };
    const failed = checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING");
    results.set(scenario, { scenario, revisions, passed: failed.length === 0, failed, client });
  }
}, 170_000);

afterAll(async () => {
  await web?.close();
  await signIn?.close();
  await closeRunStack(stack ?? {});
  if (output) await rm(output, { recursive: true, force: true });
});

describe("MCP conformance, client side", () => {
  it("passes exactly the scenarios listed as passing", () => {
    expect(results.size, suiteLog).toBeGreaterThan(0);
    const rows = [...results.values()].map((r) => ({
      scenario: r.scenario,
      revisions: r.revisions,
      result: r.passed ? "pass" : "FAIL",
      why: r.failed
        .map((c) => `${c.status} ${c.id}: ${c.errorMessage ?? c.description}`)
        .join(" | ")
        .slice(0, 300),
      client: r.client.slice(0, 200),
    }));
    console.table(rows);
    const passing = rows.filter((r) => r.result === "pass").map((r) => r.scenario);
    console.log(`[conformance] ${passing.length} of ${rows.length} client scenarios pass`);
    const expected = PASSING.filter((s) => results.has(s));
    expect(passing.sort()).toEqual(expected.sort());
  });

  it.skipIf(ONLY)(
    "has every scenario in the table of docs/connectors.md, with the result the run gave",
    async () => {
      const doc = await readFile(path.join(REPO_ROOT, "docs/connectors.md"), "utf8");
      const section = doc.slice(doc.indexOf("## MCP conformance"));
      const table = [
        ...section
          .slice(0, section.indexOf("\n## "))
          .matchAll(/^\| `([^`]+)` \| ([^|]+) \| ([^|]+) \|/gm),
      ].map((m) => ({
        scenario: m[1]!,
        revisions: m[2]!.trim().replace(/, /g, ","),
        result: m[3]!.trim(),
      }));
      expect(
        table.map((r) => r.scenario),
        "one row per scenario, in the suite's order",
      ).toEqual([...results.keys()]);
      for (const row of table) {
        const result = results.get(row.scenario)!;
        expect(row.revisions, row.scenario).toBe(result.revisions);
        expect(row.result, row.scenario).toBe(
          PASSING.includes(row.scenario) ? "pass" : "not supported yet",
        );
      }
    },
  );
});
