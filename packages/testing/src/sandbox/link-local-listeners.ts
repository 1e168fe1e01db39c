/**
 * TCP listeners on addresses a sandbox must not reach (a random link-local IPv4 address,
 * AWS's IPv6 metadata address, an IPv6 link-local one), added to the loopback interface for
 * the test and removed again, and one on 127.0.0.1 a sandbox with a network may reach. A
 * listener that answers the test itself tells "refused by the filter" from "nobody there".
 * Root only (adding addresses); 169.254.169.254 itself is left alone, as a cloud machine's
 * own metadata service may answer there.
 */
import { spawnSync } from "node:child_process";
import { createServer, type AddressInfo, type Server } from "node:net";

export type ListenTarget = { name: string; host: string; port: number };

export type LinkLocalListeners = {
  /** The addresses a sandbox must not reach. */
  blocked: ListenTarget[];
  /** 127.0.0.1: reachable by a sandbox with a network. */
  allowed: ListenTarget;
  close(): Promise<void>;
};

const ip = (...args: string[]) => {
  const r = spawnSync("ip", args, { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`ip ${args.join(" ")}: ${r.stderr.trim()}`);
};

const listen = (host: string) =>
  new Promise<Server & { port: number }>((resolve, reject) => {
    const server = createServer((socket) => {
      socket.on("error", () => undefined);
      socket.end("here\n");
    });
    server.once("error", reject);
    server.listen(0, host, () =>
      resolve(Object.assign(server, { port: (server.address() as AddressInfo).port })),
    );
  });

/** A connection attempt's outcome: "connected", or the error code (ETIMEDOUT after 5 s). */
export const tryConnectScript = `
const net = require("node:net");
const [host, port] = process.argv.slice(-2);
const s = net.connect({ host, port: Number(port) });
s.setTimeout(5000, () => { console.log("ETIMEDOUT"); s.destroy(); });
s.on("connect", () => { console.log("connected"); s.destroy(); });
s.on("error", (e) => console.log(e.code));
`;

export const startLinkLocalListeners = async (): Promise<LinkLocalListeners> => {
  const v4 = `169.254.${200 + Math.floor(Math.random() * 50)}.${2 + Math.floor(Math.random() * 250)}`;
  const v6 = `fe80::${Math.floor(Math.random() * 0xfffe + 1).toString(16)}`;
  const added: string[] = [];
  const servers: Server[] = [];
  const close = async () => {
    for (const s of servers) await new Promise<void>((resolve) => s.close(() => resolve()));
    for (const address of added.reverse()) spawnSync("ip", ["addr", "del", address, "dev", "lo"]);
  };
  try {
    for (const address of [`${v4}/32`, "fd00:ec2::254/128", `${v6}/128`]) {
      ip("addr", "add", address, "dev", "lo", ...(address.includes(":") ? ["nodad"] : []));
      added.push(address);
    }
    const at = async (name: string, host: string, connectHost = host): Promise<ListenTarget> => {
      const server = await listen(host);
      servers.push(server);
      return { name, host: connectHost, port: server.port };
    };
    return {
      blocked: [
        await at("link-local IPv4", v4),
        await at("link-local IPv4 as IPv6", v4, `::ffff:${v4}`),
        await at("AWS metadata over IPv6", "fd00:ec2::254"),
        await at("link-local IPv6", `${v6}%lo`),
      ],
      allowed: await at("loopback", "127.0.0.1"),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
};
