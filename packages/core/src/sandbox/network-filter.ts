/**
 * Keeps link-local and cloud metadata addresses out of reach of every sandbox that has a
 * network. A sandbox with a network shares the host's network namespace, but at `strict`
 * each runs as a uid of the worker's own range, so an nftables rule on the host's output
 * path that matches the sockets of those uids (`meta skuid`) refuses their packets to those
 * addresses, whatever the program, its socket family or an IPv4-mapped IPv6 form; the
 * worker's own sockets (uid 0) are untouched.
 *
 * The table is made by an `nft -i` child that lives as long as the filter, with the
 * table's `owner` flag: the kernel removes an owned table when the netlink socket that made
 * it closes, so when the worker exits, is killed or restarts, the child reads the end of its
 * input, exits, and nothing is left behind; no other process may change the table meanwhile.
 * Where this cannot be done (not root, no own uids, nftables missing or too old) the caller
 * is told why, to say so.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";

/**
 * What no sandbox reaches, with why. IPv4: link-local (RFC 3927; AWS, GCP, Azure, Oracle,
 * DigitalOcean, OpenStack and Tencent metadata live there), Alibaba's metadata and Oracle's
 * older one; IPv6: link-local, AWS's metadata over IPv6, and the link-local block as NAT64
 * (RFC 6052) would reach it.
 */
export const BLOCKED_FROM_SANDBOXES = {
  ipv4: ["169.254.0.0/16", "100.100.100.200/32", "192.0.0.192/32"],
  ipv6: ["fe80::/10", "fd00:ec2::254/128", "64:ff9b::a9fe:0/112"],
  /** Azure's WireServer (168.63.129.16) answers agents on these ports; its DNS (53) stays reachable, as the host's resolver may be it. */
  azureWireServer: { address: "168.63.129.16", tcpPorts: [80, 32526] },
} as const;

const NFT_PATHS = ["/usr/sbin/nft", "/sbin/nft", "/usr/bin/nft"];

type UidRange = { first: number; count: number };

export type NetworkFilter = {
  /** The nftables table that holds the rules, for the log. */
  table: string;
  /** Called once if the filter ends without `close` (the nft process died): its rules are gone. */
  onLost: (listener: (reason: string) => void) => void;
  close: () => Promise<void>;
};

type NetworkFilterResult = { filter: NetworkFilter } | { unavailable: string };

const findNft = (given?: string) =>
  given ? (existsSync(given) ? given : undefined) : NFT_PATHS.find((p) => existsSync(p));

/** The nft commands of the table, one per line, for `nft -i`. */
export const filterCommands = (table: string, ranges: readonly UidRange[]): string[] => {
  const uids = `{ ${ranges.map((r) => (r.count === 1 ? `${r.first}` : `${r.first}-${r.first + r.count - 1}`)).join(", ")} }`;
  const refuse = "reject with icmpx admin-prohibited";
  const { ipv4, ipv6, azureWireServer: wire } = BLOCKED_FROM_SANDBOXES;
  return [
    `add table inet ${table} { flags owner; }`,
    `add chain inet ${table} output { type filter hook output priority filter; policy accept; }`,
    `add rule inet ${table} output meta skuid ${uids} ip daddr { ${ipv4.join(", ")} } ${refuse}`,
    `add rule inet ${table} output meta skuid ${uids} ip6 daddr { ${ipv6.join(", ")} } ${refuse}`,
    `add rule inet ${table} output meta skuid ${uids} ip daddr ${wire.address} tcp dport { ${wire.tcpPorts.join(", ")} } ${refuse}`,
  ];
};

/** nft table names: letters, digits and _, with this process's pid so a restart never meets its predecessor's. */
const tableName = (owner: string) =>
  `switchyard_${owner.replace(/[^A-Za-z0-9]/g, "_").slice(0, 40)}_${process.pid}`;

const listed = (nft: string, table: string) => {
  const r = spawnSync(nft, ["list", "table", "inet", table], {
    encoding: "utf8",
    timeout: 10_000,
    env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" },
  });
  return r.status === 0 ? r.stdout : undefined;
};

/**
 * Starts the filter for the sandboxes running as `uids`, or says why it cannot: the caller
 * logs either. `owner` names the table (the worker's id).
 */
export const startNetworkFilter = async (options: {
  owner: string;
  uids: readonly UidRange[];
  nft?: string;
  /**
   * How long the rules may take to appear before nftables is taken as unavailable.
   * @default 10_000 (10 s)
   */
  timeoutMs?: number;
}): Promise<NetworkFilterResult> => {
  if (process.getuid?.() !== 0)
    return { unavailable: "the worker does not run as root, so it cannot add firewall rules" };
  if (options.uids.length === 0)
    return {
      unavailable:
        "sandboxes run without uids of their own, so their packets cannot be told from the worker's",
    };
  const nft = findNft(options.nft);
  if (!nft)
    return {
      unavailable: `nftables is not installed (no ${options.nft ?? NFT_PATHS.join(" or ")}; Debian/Ubuntu: apt-get install nftables)`,
    };
  const table = tableName(options.owner);
  const child: ChildProcess = spawn(nft, ["-i"], {
    stdio: ["pipe", "ignore", "pipe"],
    env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin", LANG: "C" },
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  const exited = new Promise<string>((resolve) => {
    child.once("error", (error) => resolve(error.message));
    child.once("exit", (code, signal) =>
      resolve(
        `nft exited (${signal ?? `code ${code}`})${stderr ? `: ${stderr.trim().split("\n")[0]}` : ""}`,
      ),
    );
  });
  child.stdin?.on("error", () => undefined);
  child.stdin?.write(`${filterCommands(table, options.uids).join("\n")}\n`);
  // The table is there once `nft list` shows every rule; an error makes nft say so and carry on.
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  let ready = false;
  while (!ready && Date.now() < deadline && child.exitCode === null) {
    const text = listed(nft, table);
    ready = text !== undefined && (text.match(/reject/g) ?? []).length === 3;
    if (!ready) {
      if (stderr.includes("Error")) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  if (!ready) {
    child.stdin?.end();
    child.kill("SIGKILL");
    const why =
      stderr.trim().split("\n")[0] ||
      (child.exitCode !== null ? await exited : "its rules did not appear in time");
    return {
      unavailable: `nftables refused the rules (${why}); a kernel without nf_tables or an nft older than 0.9.9 (owned tables) cannot hold them`,
    };
  }
  let closing = false;
  const listeners: ((reason: string) => void)[] = [];
  void exited.then((reason) => {
    if (!closing) for (const listener of listeners) listener(reason);
  });
  return {
    filter: {
      table,
      onLost: (listener) => listeners.push(listener),
      close: async () => {
        closing = true;
        child.stdin?.end();
        const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
        await exited;
        clearTimeout(timer);
      },
    },
  };
};
