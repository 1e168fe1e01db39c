/**
 * The connector sandbox through the real sandbox and a real MCP client: a stdio connector
 * whose definition does not say gets the worker's step network setting (here: none), one
 * that asks for a network gets it; a command from outside the connectors folder is refused
 * at the spawn unless any command is allowed.
 */
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type AddressInfo, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createUidPool, type SandboxHost } from "@switchyard/core/sandbox";
import { detectForTest, isRoot } from "@switchyard/testing/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxedStdio } from "./connector-sandbox";

const FIRST = 400_000 + Math.floor(Math.random() * 100_000) * 4;
const PROBE = path.resolve(import.meta.dirname, "../../../test/fixtures/probe-mcp-server.cjs");

let host: SandboxHost;
let scratch: string;
let listener: Server;
let allowAny = false;
let open: ReturnType<typeof sandboxedStdio>;

beforeAll(async () => {
  host = await detectForTest(FIRST);
  scratch = mkdtempSync(path.join(tmpdir(), "sy-connector-sandbox-unit-"));
  chmodSync(scratch, 0o711);
  const connectorsDir = path.join(scratch, "connectors");
  mkdirSync(connectorsDir);
  copyFileSync(PROBE, path.join(connectorsDir, "probe.cjs"));
  const workspaces = path.join(scratch, "ws");
  mkdirSync(workspaces, { mode: 0o711 });
  listener = createServer((s) => s.end());
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  open = sandboxedStdio({
    host,
    uids: isRoot ? createUidPool(FIRST, 4) : undefined,
    scratchDir: workspaces,
    connectorsDir,
    defaultNetwork: false,
    allowAnyCommand: () => Promise.resolve(allowAny),
  });
});
afterAll(async () => {
  await new Promise((resolve) => listener?.close(resolve));
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const connectText = async (network: boolean | undefined) => {
  const transport = await open(
    {
      id: "probe",
      kind: "stdio",
      command: "node",
      args: ["/opt/connectors/probe.cjs"],
      ...(network === undefined ? {} : { network }),
    },
    {},
  );
  const client = new Client({ name: "test", version: "1" });
  try {
    await client.connect(transport);
    const result = await client.callTool({
      name: "connect",
      arguments: { host: "127.0.0.1", port: (listener.address() as AddressInfo).port },
    });
    return (result.content as { text: string }[])[0]!.text;
  } finally {
    await client.close();
  }
};

describe("a stdio connector's sandbox", () => {
  it("has the steps' network setting unless its definition says, and a network when it asks", async () => {
    expect(await connectText(undefined)).toMatch(/^E/);
    expect(await connectText(false)).toMatch(/^E/);
    expect(await connectText(true)).toBe("connected");
  }, 60_000);

  it("refuses at the spawn a command from outside the connectors folder unless any command is allowed", async () => {
    const inline = {
      id: "inline",
      kind: "stdio" as const,
      command: "node",
      args: ["-e", "process.exit(0)"],
    };
    await expect(open(inline, {})).rejects.toMatchObject({
      code: "USER.CONNECTOR.COMMAND_NOT_ALLOWED",
      location: { path: "command" },
    });
    allowAny = true;
    try {
      const transport = await open(inline, {});
      await transport.close();
    } finally {
      allowAny = false;
    }
  }, 60_000);
});
