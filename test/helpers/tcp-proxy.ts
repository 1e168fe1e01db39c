/**
 * A TCP proxy on 127.0.0.1 that can cut every connection and refuse new ones for a while,
 * to show what a process does when its database goes away and comes back.
 */
import { createConnection, createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

export const startTcpProxy = async (target: { host: string; port: number }) => {
  const sockets = new Set<Socket>();
  let up = true;
  const server = createServer((client) => {
    if (!up) return client.destroy();
    const upstream = createConnection(target);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    port: (server.address() as AddressInfo).port,
    /** Cuts every open connection and refuses new ones until `restore`. */
    cut: () => {
      up = false;
      for (const s of sockets) s.destroy();
    },
    restore: () => {
      up = true;
    },
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
};
