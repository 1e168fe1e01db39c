/**
 * A team connector's tool called the way an openai_compatible agent step calls it: the
 * worker's MCP client → `switchyard mcp-serve` in the step sandbox → the step channel → the
 * worker's connector pool (createWorkerConnectors and openStepConnectors, with their per-call
 * lane, allow-list and task-journal reads from Postgres) → the stdio server in a sandbox of
 * its own (sandboxedStdio: its own uid at `strict`, the connectors folder staged read-only at
 * /opt/connectors). Against an MCP SDK client calling the same server spawned bare. The
 * server is test/fixtures/probe-mcp-server.cjs (Node's own modules only, so it runs from a
 * connectors folder); the tool is its `version`. Calls take turns after a warm-up; the step's
 * figure is until the result reaches the client (what the agent waits), and each call's
 * record is awaited before the next one starts. A third caller in the same turns, the step's
 * connector adapter called directly (what the channel calls), says how much of the added
 * time is the worker's side.
 */
import { copyFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { parseEgressAllowList } from "@switchyard/core/egress";
import { createUidPool } from "@switchyard/core/sandbox";
import { Scrubber } from "@switchyard/core/secrets";
import { createDb, createRun, saveWorkflowVersion } from "@switchyard/db";
import { seed } from "@switchyard/db/seed";
import { freshDatabase } from "@switchyard/testing/db";
import { loopbackEgressFetch } from "@switchyard/testing/egress";
import { createTeamConnector } from "../apps/web/src/server/connectors/connector-operations";
import { sandboxedStdio } from "../apps/worker/src/connector-sandbox";
import { createLogger } from "../apps/worker/src/logger";
import { createWorkerConnectors, openStepConnectors } from "../apps/worker/src/team-connectors";
import { environmentKeyring } from "../test/helpers/dashboard-caller";
import { summarise, type Sample } from "./measure";
import { openStepKit, openStepProxySession, REPO } from "./step-kit";

const quick = () => process.env.SWITCHYARD_BENCH_QUICK === "1";
const WARMUP = 50;
/** Connector uids of this bench: next to step-kit's step uid (64100), apart from the ranges workers take. */
const CONNECTOR_UID = 64_110;
const PROBE = "probe-mcp-server.cjs";
const TOOL = "version";
const ANSWER = "probe 1";

const textOf = (result: Awaited<ReturnType<Client["callTool"]>>) =>
  (result.content as { type: string; text?: string }[]).map((c) => c.text ?? "").join("");

export const benchConnectorCall = async (): Promise<Sample[]> => {
  const calls = quick() ? 500 : 1000;
  const kit = await openStepKit("connector-call");
  const database = await freshDatabase();
  const db = createDb(database.url, { max: 4 });
  const closers: (() => Promise<unknown>)[] = [];
  try {
    const connectorsDir = path.join(kit.scratch, "connectors");
    await mkdir(connectorsDir, { mode: 0o755 });
    await copyFile(path.join(REPO, "test/fixtures", PROBE), path.join(connectorsDir, PROBE));

    const { team, admin } = await seed(db, {
      adminEmail: "bench@local",
      adminPassword: "bench-password",
    });
    // As an admin saves it: the web app's checks (the command policy among them) apply.
    await createTeamConnector(
      db,
      { teamId: team.id, userId: admin.id, role: "owner" },
      {
        definition: {
          id: "probe",
          name: "Probe",
          transport: "stdio",
          command: "node",
          args: [`/opt/connectors/${PROBE}`],
          lanes: ["*"],
        },
      },
      { egress: parseEgressAllowList(""), allowAnyCommand: false },
    );
    // A run for the step to belong to, as in the worker (its task journal is keyed by it).
    const { id: workflowVersionId, workflowId } = await saveWorkflowVersion(db, {
      teamId: team.id,
      name: "bench-connector",
      files: {
        "workflow.yaml": "name: bench-connector\nstates:\n  initial: s\n  s:\n    type: terminal\n",
      },
    });
    const run = await createRun(db, {
      teamId: team.id,
      workflowId,
      workflowVersionId,
      lane: "default",
      trigger: "api",
    });

    // The worker's pool, its stdio connectors sandboxed as main.ts sets them up.
    const connectors = createWorkerConnectors({
      allowAnyCommand: () => Promise.resolve(false),
      oauthFetch: loopbackEgressFetch(),
      openStdio: sandboxedStdio({
        host: kit.host,
        uids: kit.uid === undefined ? undefined : createUidPool(CONNECTOR_UID, 2),
        scratchDir: kit.scratch,
        connectorsDir,
        defaultNetwork: false,
        allowAnyCommand: () => Promise.resolve(false),
      }),
    });
    closers.push(() => connectors.pool.close());
    const opened = await openStepConnectors({
      db,
      keyring: environmentKeyring(),
      log: createLogger("error", { service: "bench" }),
      connectors,
      scrubber: new Scrubber(),
      teamId: team.id,
      runId: run.id,
      lane: "default",
      starterId: admin.id,
      slugs: ["probe"],
      stateName: "agent",
    });
    if (!opened) throw new Error("the step's connectors did not open");
    closers.push(() => opened.host.close());
    const name = opened.catalog.find((e) => e.connector === "probe" && e.tool === TOOL)?.name;
    if (!name)
      throw new Error(
        `the probe connector lists no ${TOOL}: ${JSON.stringify(opened.catalog.map((e) => e.name))}`,
      );

    const step = await openStepProxySession(
      kit,
      "connector-calls",
      { name, arguments: {} },
      { toolSearch: false, initialTools: [], connectors: opened },
    );
    closers.push(() => step.close());

    const bare = new Client({ name: "bench", version: "1" });
    await bare.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [path.join(connectorsDir, PROBE)],
        stderr: "ignore",
      }),
    );
    closers.push(() => bare.close());

    const callBare = async () => {
      const t0 = performance.now();
      const result = await bare.callTool({ name: TOOL, arguments: {} });
      const ms = performance.now() - t0;
      if (result.isError || textOf(result) !== ANSWER)
        throw new Error(`the bare server answered ${JSON.stringify(result)}`);
      return ms;
    };
    const callStep = async () => {
      const result = await step.call();
      if (textOf(result) !== ANSWER)
        throw new Error(`the step's connector call answered ${JSON.stringify(result)}`);
    };

    // The worker's side alone: the step's connector adapter (its reads, the pool's call to
    // the sandboxed server), as the channel calls it, without the proxy and the channel.
    const callAdapter = async () => {
      const t0 = performance.now();
      const result = await opened.host.callTool("probe", TOOL, {});
      const ms = performance.now() - t0;
      if (textOf(result) !== ANSWER)
        throw new Error(`the worker's adapter answered ${JSON.stringify(result)}`);
      return ms;
    };

    for (let i = 0; i < WARMUP; i++) {
      await callBare();
      await callAdapter();
      await callStep();
    }
    step.untilResult.length = 0;
    const bareTimes: number[] = [];
    const adapterTimes: number[] = [];
    for (let i = 0; i < calls; i++) {
      bareTimes.push(await callBare());
      adapterTimes.push(await callAdapter());
      await callStep();
    }
    const b = summarise(bareTimes);
    const a = summarise(adapterTimes);
    const s = summarise(step.untilResult);
    const note = (base: number, subject: number, adapter: number, target: string) =>
      `the same stdio server spawned bare, SDK client; added ${(subject - base).toFixed(2)} ms, the worker's connector adapter called directly ${adapter.toFixed(2)} ms; ${target}; ${calls} calls each, taking turns`;
    return [
      {
        name: "connector call via worker pool, sandboxed (p50)",
        unit: "ms",
        baseline: b.p50,
        subject: s.p50,
        note: note(b.p50, s.p50, a.p50, "target ≤ 1.5x and ≤ +2 ms"),
      },
      {
        name: "connector call via worker pool, sandboxed (p99)",
        unit: "ms",
        baseline: b.p99,
        subject: s.p99,
        note: note(b.p99, s.p99, a.p99, "no target"),
      },
    ];
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await db.$disconnect();
    await database.drop();
    await kit.close();
  }
};
