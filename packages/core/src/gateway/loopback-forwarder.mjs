#!/usr/bin/env node
/**
 * The loopback forwarder: runs inside a step's own network namespace (a sandbox without
 * network), listens on 127.0.0.1:<port> there and pipes each connection to the model
 * gateway's unix socket, which the sandbox binds in. An agent CLI inside then reaches the
 * gateway at http://127.0.0.1:<port> and nothing else of the host. Plain Node with only
 * `node:` imports, so a sandbox runs it with `node` from a read-only bind.
 *
 *   node loopback-forwarder.mjs <port> <socket-path> [-- command [args...]]
 *
 * With a command it listens first, then runs the command (stdio inherited, SIGTERM, SIGINT
 * and SIGHUP passed on) and exits with its status, saying nothing itself unless it fails.
 * Without one it prints one line on stderr once listening and runs until a signal.
 */
import { spawn } from "node:child_process";
import { realpathSync } from "node:fs";
import { connect, createServer } from "node:net";
import { constants } from "node:os";
import { fileURLToPath } from "node:url";

const SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"];

/** Listens on host:listenPort (0 picks a port) and pipes every connection to socketPath. */
export const createLoopbackForwarder = async ({ listenPort, socketPath, host = "127.0.0.1" }) => {
  const sockets = new Set();
  const track = (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  };
  const server = createServer({ allowHalfOpen: true }, (client) => {
    const gateway = connect({ path: socketPath, allowHalfOpen: true });
    track(client);
    track(gateway);
    const drop = () => {
      client.destroy();
      gateway.destroy();
    };
    client.on("error", drop);
    gateway.on("error", drop);
    client.pipe(gateway);
    gateway.pipe(client);
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(listenPort, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return {
    port: server.address().port,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
};

const usage = () => {
  process.stderr.write("usage: loopback-forwarder <port> <socket-path> [-- command [args...]]\n");
  process.exit(2);
};

const main = async (argv) => {
  const [portText, socketPath, separator, ...command] = argv;
  const listenPort = Number(portText);
  if (!/^\d+$/.test(portText ?? "") || listenPort > 65535 || !socketPath) usage();
  if (separator !== undefined && (separator !== "--" || command.length === 0)) usage();
  let forwarder;
  try {
    forwarder = await createLoopbackForwarder({ listenPort, socketPath });
  } catch (error) {
    process.stderr.write(
      `loopback-forwarder: cannot listen on 127.0.0.1:${listenPort}: ${error.message}\n`,
    );
    process.exit(1);
  }
  if (command.length === 0) {
    process.stderr.write(`loopback-forwarder: 127.0.0.1:${forwarder.port} -> ${socketPath}\n`);
    for (const signal of SIGNALS)
      process.on(signal, () => void forwarder.close().then(() => process.exit(0)));
    return;
  }
  const child = spawn(command[0], command.slice(1), { stdio: "inherit" });
  for (const signal of SIGNALS) process.on(signal, () => child.kill(signal));
  child.on("error", (error) => {
    process.stderr.write(`loopback-forwarder: cannot run ${command[0]}: ${error.message}\n`);
    process.exit(127);
  });
  child.on("exit", (code, signal) => {
    void forwarder.close();
    process.exit(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0));
  });
};

const isMain = () => {
  try {
    return realpathSync(process.argv[1] ?? "") === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
};

if (isMain()) await main(process.argv.slice(2));
