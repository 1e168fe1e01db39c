/**
 * The network filter through the real sandbox, as root with nftables: a process in a
 * sandbox with a network, running as a uid of the filtered range, is refused a link-local
 * IPv4 address (also written as IPv4-mapped IPv6), AWS's IPv6 metadata address and an IPv6
 * link-local one, each with a listener that answers the test itself, while 127.0.0.1 still
 * answers; a uid outside the range is not touched. Closing the filter, or killing the
 * process that holds it, leaves no table behind.
 */
import { spawn, spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  detectForTest,
  isRoot,
  makeStepDirs,
  removeStepDirs,
  spec,
  startLinkLocalListeners,
  tryConnectScript,
  type LinkLocalListeners,
  type ListenTarget,
  type StepDirs,
} from "@switchyard/testing/sandbox";
import { filterCommands, startNetworkFilter, type NetworkFilter } from "./network-filter";
import { runSandboxed } from "./run-sandboxed";
import type { SandboxHost } from "./sandbox-types";

const hasNft =
  spawnSync("nft", ["--version"], { env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" } }).status === 0;
/** A range of this test's own: other suites' sandboxes on this machine must not be filtered. */
const FIRST = 300_000 + Math.floor(Math.random() * 100_000) * 4;
const tables = () =>
  spawnSync("nft", ["list", "tables"], {
    encoding: "utf8",
    env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" },
  }).stdout;

describe.skipIf(!isRoot || !hasNft)("the network filter, through the real sandbox", () => {
  let host: SandboxHost;
  let dirs: StepDirs;
  let listeners: LinkLocalListeners;
  let filter: NetworkFilter;
  beforeAll(async () => {
    host = await detectForTest(FIRST, "strict");
    dirs = await makeStepDirs();
    listeners = await startLinkLocalListeners();
    const started = await startNetworkFilter({
      owner: `test-${FIRST}`,
      uids: [{ first: FIRST, count: 2 }],
    });
    if (!("filter" in started)) throw new Error(started.unavailable);
    filter = started.filter;
  });
  afterAll(async () => {
    await filter?.close();
    await listeners?.close();
    if (dirs) await removeStepDirs(dirs);
  });

  const attempt = async (uid: number, target: ListenTarget) => {
    const r = await runSandboxed(
      host,
      spec(dirs, uid, ["node", "-e", tryConnectScript, target.host, String(target.port)], {
        network: true,
      }),
      { timeoutMs: 20_000 },
    );
    return r.stdout.trim() || r.stderr.trim();
  };

  it("refuses link-local and metadata addresses to a sandbox with a network, and leaves loopback reachable", async () => {
    for (const target of listeners.blocked)
      expect([target.name, await attempt(FIRST, target)]).toEqual([
        target.name,
        expect.stringMatching(/^E(HOSTUNREACH|ACCES|PERM|NETUNREACH)$/),
      ]);
    expect(await attempt(FIRST + 1, listeners.allowed)).toBe("connected");
    // A uid outside the range: the listeners are there.
    for (const target of listeners.blocked)
      expect([target.name, await attempt(FIRST + 2, target)]).toEqual([target.name, "connected"]);
  }, 120_000);

  it("writes one owned table with a rule per family and Azure's WireServer ports", () => {
    expect(
      filterCommands("t", [
        { first: 5000, count: 3 },
        { first: 7000, count: 1 },
      ]),
    ).toEqual([
      "add table inet t { flags owner; }",
      "add chain inet t output { type filter hook output priority filter; policy accept; }",
      "add rule inet t output meta skuid { 5000-5002, 7000 } ip daddr { 169.254.0.0/16, 100.100.100.200/32, 192.0.0.192/32 } reject with icmpx admin-prohibited",
      "add rule inet t output meta skuid { 5000-5002, 7000 } ip6 daddr { fe80::/10, fd00:ec2::254/128, 64:ff9b::a9fe:0/112 } reject with icmpx admin-prohibited",
      "add rule inet t output meta skuid { 5000-5002, 7000 } ip daddr 168.63.129.16 tcp dport { 80, 32526 } reject with icmpx admin-prohibited",
    ]);
    expect(tables()).toContain(filter.table);
  });

  it("leaves nothing behind when closed, or when the process holding it is killed", async () => {
    const other = await startNetworkFilter({
      owner: `test-close-${FIRST}`,
      uids: [{ first: FIRST + 2, count: 1 }],
    });
    if (!("filter" in other)) throw new Error(other.unavailable);
    expect(tables()).toContain(other.filter.table);
    await other.filter.close();
    expect(tables()).not.toContain(other.filter.table);

    // A holder SIGKILLed (a worker killed): its nft reads the end of its input and the kernel drops the table.
    const holder = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "-e",
        `
      const { startNetworkFilter } = await import(${JSON.stringify(new URL("./network-filter.ts", import.meta.url).pathname)});
      const r = await startNetworkFilter({ owner: "test-killed-${FIRST}", uids: [{ first: ${FIRST + 3}, count: 1 }] });
      console.log("filter" in r ? r.filter.table : "unavailable " + r.unavailable);
      setInterval(() => undefined, 1000);
    `,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const table = await new Promise<string>((resolve) =>
      holder.stdout.once("data", (c: Buffer) => resolve(c.toString().trim())),
    );
    expect(tables()).toContain(table);
    holder.kill("SIGKILL");
    const deadline = Date.now() + 5_000;
    while (tables().includes(table) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(tables()).not.toContain(table);
  }, 60_000);
});
