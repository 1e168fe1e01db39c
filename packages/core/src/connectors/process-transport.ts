/**
 * The MCP transport to a stdio connector started in a sandbox: the SDK's stdio transport over
 * the process's pipes, whose close (by the pool, or when the process exits on its own) also
 * ends its stdin, stops the sandboxed process and then runs `after` (close the sandbox), once.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { SandboxProcess } from "../sandbox";

export const processTransport = (
  proc: SandboxProcess,
  after: () => Promise<void>,
): StdioServerTransport => {
  const transport = new StdioServerTransport(proc.stdout, proc.stdin);
  const closeTransport = transport.close.bind(transport);
  let closing: Promise<void> | undefined;
  transport.close = () =>
    (closing ??= (async () => {
      await closeTransport();
      proc.stdin.end();
      await proc.stop().catch(() => undefined);
      await after();
    })());
  void proc.exited.then(() => transport.close().catch(() => undefined));
  return transport;
};
