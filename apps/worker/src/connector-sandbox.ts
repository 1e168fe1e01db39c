/**
 * Where the worker runs stdio connectors: each live connector process in a sandbox session
 * of its own (not a step's): its own uid from the worker's pool at `strict`, a private HOME,
 * temp folder and workspace, the network (a connector talks to its service), and the
 * connectors folder (SWITCHYARD_CONNECTORS_DIR, where an admin installs connector packages
 * with `npm install --prefix`) read-only at /opt/connectors. Its environment is the
 * connector's non-secret variables and the credential, nothing of the worker's. Closing the
 * transport (the pool closes idle or failed connectors) stops the process and closes the
 * session, which reaps whatever it started.
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ConnectorSpec } from "@switchyard/core/connectors";
import { stageTree } from "@switchyard/core/providers";
import { openSandboxSession, type SandboxBind, type SandboxHost, type UidPool } from "@switchyard/core/sandbox";

/** Where the connectors folder appears to a connector. */
export const CONNECTORS_INSIDE = "/opt/connectors";

type ConnectorSandboxOptions = {
  /** The worker's host; each connector gets the owner tag `<worker>/connector-<n>`. */
  host: SandboxHost;
  uids: UidPool | undefined;
  /** The worker's own traversable folder for sessions and the staged connectors folder. */
  scratchDir: string;
  connectorsDir: string | undefined;
};

export const sandboxedStdio = (options: ConnectorSandboxOptions) => {
  let count = 0;
  let staged: Promise<SandboxBind | undefined> | undefined;
  /** The connectors folder staged where a connector's uid can reach it, once per change of the folder. */
  const connectorsBind = () => {
    const dir = options.connectorsDir;
    if (!dir || !existsSync(dir)) return Promise.resolve(undefined);
    const target = path.join(options.scratchDir, `.connectors-${Math.floor(statSync(dir).mtimeMs)}`);
    staged ??= stageTree(dir, target).then(() => ({ path: target, mode: "ro" as const, target: CONNECTORS_INSIDE }));
    staged.catch(() => (staged = undefined));
    return staged;
  };

  return async (spec: Extract<ConnectorSpec, { kind: "stdio" }>, env: Record<string, string>): Promise<Transport> => {
    const uid = options.uids?.acquire();
    const session = await openSandboxSession({
      ownerId: `${options.host.ownerId}/connector-${++count}`,
      level: { host: options.host },
      scratchDir: options.scratchDir,
      prefix: "connector-",
      network: true,
      ...(uid === undefined ? {} : { uid, ownsUid: true }),
    }).catch((error: unknown) => {
      if (uid !== undefined) options.uids?.release(uid);
      throw error;
    });
    let closed = false;
    const finish = async () => {
      if (closed) return;
      closed = true;
      await session.close().finally(() => {
        if (uid !== undefined) options.uids?.release(uid);
      });
    };
    try {
      const bind = await connectorsBind();
      const proc = await session.start({ argv: [spec.command, ...(spec.args ?? [])], env, binds: bind ? [bind] : [] }, {});
      proc.stderr.resume();
      // The SDK's stdio transport over any readable and writable: the connector's stdout and stdin.
      const transport = new StdioServerTransport(proc.stdout, proc.stdin);
      const close = transport.close.bind(transport);
      transport.close = async () => {
        await close();
        proc.stdin.end();
        await proc.stop().catch(() => undefined);
        await finish();
      };
      void proc.exited.then(() => transport.close().catch(() => undefined));
      return transport;
    } catch (error) {
      await finish().catch(() => undefined);
      throw error;
    }
  };
};
