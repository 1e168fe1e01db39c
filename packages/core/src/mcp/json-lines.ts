/**
 * Newline-delimited JSON over a stream socket: one message per line, with a cap on line
 * length so a confused peer cannot grow a buffer without bound.
 */
import type { Socket } from "node:net";

const MAX_LINE_BYTES = 64 * 1024 * 1024;

export const writeLine = (socket: Socket, message: unknown): boolean => {
  if (socket.destroyed || !socket.writable) return false;
  return socket.write(`${JSON.stringify(message)}\n`);
};

/** Calls `onLine` with each parsed line; a malformed or oversized line calls `onError`. */
export const readLines = (
  socket: Socket,
  onLine: (value: unknown) => void,
  onError: (error: Error) => void,
): void => {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  socket.on("data", (chunk: Buffer) => {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      pending.push(chunk.subarray(start, nl));
      const line = Buffer.concat(pending).toString("utf8");
      pending = [];
      pendingBytes = 0;
      start = nl + 1;
      if (line.trim() === "") continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        onError(new Error("the peer sent a line that is not JSON"));
        return;
      }
      onLine(value);
    }
    if (start < chunk.length) {
      pending.push(chunk.subarray(start));
      pendingBytes += chunk.length - start;
      if (pendingBytes > MAX_LINE_BYTES)
        onError(new Error("the peer sent a line longer than the limit"));
    }
  });
};
