/**
 * Stdio connectors and steps in their sandboxes under the real worker (as root, at
 * `strict`), with a connectors folder of the test's own holding a probe server. Checked:
 * a shell step with a network and a stdio connector with a network are refused link-local
 * and cloud metadata addresses (each with a listener that answers the test itself) while
 * loopback still answers, and the worker says at boot that its network filter is on (and a
 * worker at `namespaces` that it cannot filter, and why); a
 * connector whose definition switches its network off reaches nothing; a connector saved
 * while any command was allowed is refused by the worker, in a run and from the console,
 * before anything starts; a package installed into the connectors folder later
 * (`npm install --prefix`) is seen by the next connector to start, without a restart, and
 * the staged copy nothing uses any more is removed.
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { createConnector, saveWorkflowVersion, updateInstanceSettings } from "@switchyard/db";
import {
  isRoot,
  startLinkLocalListeners,
  type LinkLocalListeners,
  type ListenTarget,
} from "@switchyard/testing/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dashboardCaller } from "./helpers/dashboard-caller";
import { startRecordingMcpServer, type RecordingMcpServer } from "./helpers/recording-mcp-server";
import { closeRunStack, openRunStack, runEnded, type RunStack } from "./helpers/run-stack";
import { REPO_ROOT, startWorker, waitFor } from "./helpers/worker-process";

const hasNft =
  spawnSync("nft", ["--version"], { env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" } }).status === 0;
const WORKER_ID = `sandbox-${Math.random().toString(36).slice(2, 8)}`;
const keyring = keyringOf(
  parseMasterKey(
    process.env.SWITCHYARD_MASTER_KEY_ID || "k1",
    process.env.SWITCHYARD_MASTER_KEY ?? "",
  ),
);

let stack: RunStack;
let listeners: LinkLocalListeners;
let recordingServer: RecordingMcpServer;
let connectorsDir: string;
let scratch: string;
const admin = () =>
  dashboardCaller(
    { db: stack.db, keyring, queue: stack.queue, redis: stack.redis, prefix: stack.prefix },
    stack.adminId,
  );
const PROBE = { command: "node", args: ["/opt/connectors/probe-mcp-server.cjs"] };

/** The text a connector's tool answered, called by hand from the console (through the worker). */
const callText = async (id: string, tool: string, args: Record<string, unknown> = {}) => {
  const result = await admin().connectors.callTool({ id, tool, arguments: args });
  return (result.content as { text?: string }[]).map((c) => c.text ?? "").join("");
};
const reach = (id: string, target: ListenTarget) =>
  callText(id, "connect", { host: target.host, port: target.port });
const REFUSED = /^E(HOSTUNREACH|ACCES|PERM|NETUNREACH)$/;
const stagedCopies = () =>
  readdirSync(stack.worker.workspaces).filter((n) => n.startsWith(`.connectors-${WORKER_ID}-`));

/** A shell step that tries each target and prints `<name>=<outcome>` per line. */
const reachWorkflow = (targets: ListenTarget[]) => `name: reach
states:
  initial: probe
  probe:
    type: step
    command: |
      cat > /tmp/probe.cjs <<'SCRIPT'
      const net = require("node:net");
      const targets = ${JSON.stringify(targets)};
      const one = (t) => new Promise((resolve) => {
        const s = net.connect({ host: t.host, port: t.port });
        s.setTimeout(5000, () => { s.destroy(); resolve("ETIMEDOUT"); });
        s.on("connect", () => { s.destroy(); resolve("connected"); });
        s.on("error", (e) => resolve(e.code));
      });
      (async () => { for (const t of targets) console.log(t.name + "=" + (await one(t))); })();
      SCRIPT
      node /tmp/probe.cjs
    on_success: done
  done:
    type: terminal
`;

beforeAll(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), "sy-connector-sandbox-"));
  connectorsDir = path.join(scratch, "connectors");
  mkdirSync(connectorsDir);
  copyFileSync(
    path.join(REPO_ROOT, "test/fixtures/probe-mcp-server.cjs"),
    path.join(connectorsDir, "probe-mcp-server.cjs"),
  );
  if (isRoot) listeners = await startLinkLocalListeners();
  recordingServer = await startRecordingMcpServer();
  stack = await openRunStack({
    SWITCHYARD_CONNECTORS_DIR: connectorsDir,
    SWITCHYARD_WORKER_ID: WORKER_ID,
    SWITCHYARD_CONNECTOR_IDLE_MS: "1000",
    SWITCHYARD_MODEL_ENDPOINTS: "http://127.0.0.1:9/v1",
  });
  await admin().connectors.create({
    definition: { id: "probe", name: "Probe", transport: "stdio", ...PROBE, lanes: ["*"] },
  });
  await admin().connectors.create({
    definition: {
      id: "offline",
      name: "Offline",
      transport: "stdio",
      ...PROBE,
      network: false,
      lanes: ["*"],
    },
  });
}, 300_000);
afterAll(async () => {
  if (stack) await closeRunStack(stack);
  await listeners?.close();
  await recordingServer?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe.skipIf(!isRoot || !hasNft)("the network of sandboxes, filtered", () => {
  it("says at boot that its network filter is on, and a worker that cannot filter says why", async () => {
    expect(stack.worker.logs()).toContain("network filter on");
    const unfiltered = await startWorker({
      DATABASE_URL: stack.database.url,
      SWITCHYARD_QUEUE_PREFIX: `${stack.prefix}-ns`,
      SWITCHYARD_SANDBOX: "namespaces",
    });
    try {
      expect(unfiltered.logs()).toMatch(
        /network filter off: sandboxes run as the worker's own uid \(sandbox level namespaces\).*169\.254\.0\.0\/16/,
      );
    } finally {
      await unfiltered.stop();
    }
  }, 120_000);

  it("refuses link-local and metadata addresses to a shell step with a network, which still reaches loopback", async () => {
    const { workflowId } = await saveWorkflowVersion(stack.db, {
      teamId: stack.teamId,
      name: "reach",
      files: { "workflow.yaml": reachWorkflow([...listeners.blocked, listeners.allowed]) },
    });
    const { id } = await admin().runs.start({ workflowId });
    const ended = await runEnded(() => admin().runs.get({ id }), `run ${id}`, 120_000);
    expect(ended.status, JSON.stringify(ended.steps)).toBe("succeeded");
    const lines = Object.fromEntries(
      ended.steps[0]!.stdout.trim()
        .split("\n")
        .map((l) => l.split("=") as [string, string]),
    );
    for (const target of listeners.blocked)
      expect([target.name, lines[target.name]]).toEqual([
        target.name,
        expect.stringMatching(REFUSED),
      ]);
    expect(lines[listeners.allowed.name]).toBe("connected");
  }, 180_000);

  it("refuses them to a stdio connector with a network too, and one without a network reaches nothing", async () => {
    for (const target of listeners.blocked)
      expect([target.name, await reach("probe", target)]).toEqual([
        target.name,
        expect.stringMatching(REFUSED),
      ]);
    expect(await reach("probe", listeners.allowed)).toBe("connected");
    expect(await reach("offline", listeners.allowed)).toMatch(/^E/);
  }, 180_000);
});

describe("commands a connector may run", () => {
  it("refuses a connector saved while any command was allowed, in a run and from the console, before it starts", async () => {
    // As a connector saved then: the web app no longer takes it, so it goes in as the row it would be.
    const inline = `fetch(${JSON.stringify(recordingServer.url)}, { method: "POST", body: "ran" }).finally(() => setInterval(() => 0, 1000))`;
    await createConnector(stack.db, {
      teamId: stack.teamId,
      slug: "inline",
      createdById: stack.adminId,
      max: 64,
      name: "Inline",
      description: "",
      transport: "stdio",
      config: { command: "node", args: ["-e", inline], env: {} },
      lanes: ["*"],
      credentialMode: "team",
      initialTools: [],
      toolAllow: {},
      enabled: true,
      curatedKey: null,
    });
    await expect(
      admin().connectors.callTool({ id: "inline", tool: "x", arguments: {} }),
    ).rejects.toMatchObject({ cause: { code: "USER.CONNECTOR.COMMAND_NOT_ALLOWED" } });
    const yaml = `name: inline
states:
  initial: agent
  agent:
    type: agent
    provider: openai_compatible
    prompt: hello
    options:
      base_url: http://127.0.0.1:9/v1
      model: none
    mcp_proxy:
      connectors: [inline]
    on_success: done
  done:
    type: terminal
`;
    const { workflowId } = await saveWorkflowVersion(stack.db, {
      teamId: stack.teamId,
      name: "inline",
      files: { "workflow.yaml": yaml },
    });
    const { id } = await admin().runs.start({ workflowId });
    const run = await runEnded(() => admin().runs.get({ id }), `run ${id}`, 120_000);
    expect(run.status).toBe("failed");
    expect(
      JSON.stringify([
        run.errorCode,
        run.errorMessage,
        run.steps.map((s) => [s.errorCode, s.errorMessage]),
      ]),
    ).toContain("USER.CONNECTOR.COMMAND_NOT_ALLOWED");
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(recordingServer.requests).toEqual([]);
  }, 180_000);

  it("runs such a connector while an instance admin allows any command, and refuses it again at once when the setting goes off", async () => {
    const startInline = async () => {
      const { id } = await admin().runs.start({
        workflowId: (await admin().workflows.list()).find((w) => w.name === "inline")!.id,
      });
      return () => runEnded(() => admin().runs.get({ id }), `run ${id}`, 120_000);
    };
    const other = {
      id: "inline2",
      name: "Inline 2",
      transport: "stdio",
      command: "node",
      args: ["-e", "process.exit(0)"],
      lanes: ["*"],
    };
    await updateInstanceSettings(
      stack.db,
      { userId: stack.adminId },
      { allowAnyConnectorCommand: true },
    );
    try {
      // The web app takes such a command now, and the worker starts the connector saved before.
      await admin().connectors.create({ definition: other });
      const ended = await startInline();
      await waitFor(
        async () => (recordingServer.requests.length > 0 ? true : undefined),
        60_000,
        "the inline connector to start",
      );
      await ended();
    } finally {
      await updateInstanceSettings(
        stack.db,
        { userId: stack.adminId },
        { allowAnyConnectorCommand: false },
      );
    }
    const started = recordingServer.requests.length;
    const run = await (await startInline())();
    expect(JSON.stringify(run.steps.map((s) => [s.errorCode, s.errorMessage]))).toContain(
      "USER.CONNECTOR.COMMAND_NOT_ALLOWED",
    );
    await expect(
      admin().connectors.update({
        id: "inline2",
        definition: { ...other, args: ["-e", "process.exit(1)"] },
      }),
    ).rejects.toMatchObject({
      cause: { code: "USER.CONNECTOR.COMMAND_NOT_ALLOWED", location: { path: "command" } },
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(recordingServer.requests.length).toBe(started);
  }, 240_000);
});

describe("the connectors folder", () => {
  it("is seen as it is now by the next connector to start, and a staged copy nothing uses any more goes", async () => {
    expect(await callText("probe", "version")).toBe("probe 1");
    expect(stagedCopies()).toHaveLength(1);

    // An admin installs a package with a bin into the folder, as docs/connectors.md says.
    const pkg = path.join(scratch, "mcp-hello");
    mkdirSync(pkg);
    writeFileSync(
      path.join(pkg, "package.json"),
      JSON.stringify({ name: "mcp-hello", version: "1.0.0", bin: { "mcp-hello": "server.cjs" } }),
    );
    writeFileSync(
      path.join(pkg, "server.cjs"),
      readFileSync(path.join(REPO_ROOT, "test/fixtures/probe-mcp-server.cjs"), "utf8").replace(
        '"probe 1"',
        '"hello 1"',
      ),
    );
    chmodSync(path.join(pkg, "server.cjs"), 0o755);
    const packed = spawnSync("npm", ["pack", "--silent", "--pack-destination", scratch], {
      cwd: pkg,
      encoding: "utf8",
    });
    expect(packed.status, packed.stderr).toBe(0);
    const npm = spawnSync(
      "npm",
      [
        "install",
        "--prefix",
        connectorsDir,
        "--no-audit",
        "--no-fund",
        "--prefer-offline",
        "--loglevel=error",
        path.join(scratch, packed.stdout.trim()),
      ],
      { encoding: "utf8" },
    );
    expect(npm.status, npm.stderr).toBe(0);

    await admin().connectors.create({
      definition: {
        id: "hello",
        name: "Hello",
        transport: "stdio",
        command: "/opt/connectors/node_modules/.bin/mcp-hello",
        lanes: ["*"],
      },
    });
    expect(await callText("hello", "version")).toBe("hello 1");
    // Once "probe" (on the first copy) has gone idle and closed, only the current copy is left.
    await waitFor(
      async () => (stagedCopies().length === 1 ? true : undefined),
      30_000,
      "the old staged copy to go",
    );
    expect(await callText("probe", "version")).toBe("probe 1");
  }, 180_000);
});
