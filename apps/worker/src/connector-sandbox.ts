/**
 * Where the worker runs stdio connectors: each live connector process in a sandbox
 * of its own (not a step's): its own uid from the worker's pool at `strict`, a private HOME,
 * temp folder and workspace, a network only as its definition says (unset: as the worker's
 * steps, SWITCHYARD_STEP_NETWORK), and the connectors folder (SWITCHYARD_CONNECTORS_DIR,
 * where an admin installs connector packages with `npm install --prefix`) read-only at
 * /opt/connectors. Its environment is the connector's non-secret variables and the
 * credential, nothing of the worker's. The command must pass core's command policy here
 * too, at the last moment: a connector saved while any command was allowed stops once that
 * is switched off.
 *
 * The connectors folder is staged (a tree of hard links in the worker's own traversable
 * folder, which a connector uid can reach) once per layout: each start compares the
 * folder with what was staged, so a package installed later is seen by the next connector
 * to start, without a restart; a staged copy no live connector uses any more is removed.
 * Closing the transport (the pool closes idle or failed connectors) stops the process and
 * closes the sandbox, which reaps whatever it started.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { lstat, readdir, rm } from "node:fs/promises";
import path from "node:path";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  BUILTIN_CONNECTORS_INSIDE,
  CONNECTORS_INSIDE,
  connectorCommandRefusal,
  type ConnectorSpec,
} from "@switchyard/core/connectors";
import { processTransport } from "@switchyard/core/connectors/host";
import { stageTree } from "@switchyard/core/providers";
import {
  openSandbox,
  type SandboxBind,
  type SandboxHost,
  type UidPool,
} from "@switchyard/core/sandbox";

type ConnectorSandboxOptions = {
  /** The worker's host; each connector gets the owner tag `<worker>/connector-<n>`. */
  host: SandboxHost;
  uids: UidPool | undefined;
  /** The worker's own traversable folder for sandboxes and the staged connectors folder. */
  scratchDir: string;
  connectorsDir: string | undefined;
  /** The connectors shipped with Switchyard (the demo connector), built at boot: seen at BUILTIN_CONNECTORS_INSIDE. */
  builtinDir?: string | undefined;
  /** Whether a connector whose definition does not say has a network: the steps' setting. */
  defaultNetwork: boolean;
  /** The instance's word on commands from outside the connectors folder, asked at each start. */
  allowAnyCommand: () => Promise<boolean>;
};

/**
 * The folder's layout as a digest: every folder's path, inode and change time. A staged
 * copy is hard links to the same files, so a file changed in place is already seen there;
 * what makes a copy stale is an entry added, removed or replaced (npm installs and
 * updates that way), and that changes the time of the folder holding it. (Where the files
 * had to be copied instead, on another file system, a file changed in place is not seen:
 * keep the connectors folder on the workspaces' file system.)
 */
const layoutOf = async (folder: string): Promise<string> => {
  const [s, entries] = await Promise.all([lstat(folder), readdir(folder, { withFileTypes: true })]);
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const children = await Promise.all(
    names.map(async (name) => `${name}:${await layoutOf(path.join(folder, name))}`),
  );
  return createHash("sha256")
    .update(`${s.ino}\0${s.mtimeMs}\0${children.join("\0")}`)
    .digest("hex");
};

/** Staged copies of the folder this worker made: `.connectors-<owner>-<content>`. */
const stagePrefix = (ownerId: string) => `.connectors-${ownerId.replace(/[^A-Za-z0-9._-]/g, "_")}-`;

/** Removes the staged copies a previous worker of this owner left. */
export const sweepStagedConnectors = async (scratchDir: string, ownerId: string) => {
  const prefix = stagePrefix(ownerId);
  for (const name of await readdir(scratchDir).catch(() => [] as string[]))
    if (name.startsWith(prefix))
      await rm(path.join(scratchDir, name), { recursive: true, force: true });
};

/**
 * The staged copies in use: each live connector holds the one it started with; a copy that
 * is no longer the folder's content goes once the last connector holding it has ended.
 */
const stagedCopies = (options: ConnectorSandboxOptions) => {
  const users = new Map<string, number>();
  let generation = 0;
  let current: { content: string; staging: Promise<SandboxBind> } | undefined;
  let currentPath: string | undefined;
  const drop = async (target: string) => {
    if ((users.get(target) ?? 0) > 0 || target === currentPath) return;
    users.delete(target);
    await rm(target, { recursive: true, force: true }).catch(() => undefined);
  };
  return {
    /** The staged copy of the folder as it is now (staged first when it changed), held until `release`. */
    take: async (): Promise<SandboxBind | undefined> => {
      const dir = options.connectorsDir;
      if (!dir || !existsSync(dir)) return undefined;
      const content = (await layoutOf(dir)).slice(0, 16);
      if (current?.content !== content) {
        // A new name each time, so a copy being removed is never taken up again.
        const target = path.join(
          options.scratchDir,
          `${stagePrefix(options.host.ownerId)}${++generation}-${content}`,
        );
        const staging = stageTree(dir, target).then(() => {
          const previous = currentPath;
          if (current?.staging === staging) currentPath = target;
          if (previous !== undefined && previous !== currentPath) void drop(previous);
          return { path: target, mode: "ro" as const, target: CONNECTORS_INSIDE };
        });
        current = { content, staging };
        staging.catch(() => {
          if (current?.staging === staging) current = undefined;
          void rm(target, { recursive: true, force: true }).catch(() => undefined);
        });
      }
      const bind = await current.staging;
      users.set(bind.path, (users.get(bind.path) ?? 0) + 1);
      return bind;
    },
    release: (bind: SandboxBind | undefined) => {
      if (!bind) return;
      users.set(bind.path, (users.get(bind.path) ?? 1) - 1);
      void drop(bind.path);
    },
  };
};

export const sandboxedStdio = (options: ConnectorSandboxOptions) => {
  let count = 0;
  const staged = stagedCopies(options);

  return async (
    spec: Extract<ConnectorSpec, { kind: "stdio" }>,
    env: Record<string, string>,
  ): Promise<Transport> => {
    const refused = connectorCommandRefusal(
      {
        command: spec.command,
        args: spec.args ?? [],
        env: spec.env ?? {},
        credentialEnv: spec.credentialEnv,
      },
      { allowAnyCommand: await options.allowAnyCommand() },
    );
    if (refused) throw refused;
    const uid = options.uids?.acquire();
    const sandbox = await openSandbox({
      ownerId: `${options.host.ownerId}/connector-${++count}`,
      level: { host: options.host },
      scratchDir: options.scratchDir,
      prefix: "connector-",
      network: spec.network ?? options.defaultNetwork,
      ...(uid === undefined ? {} : { uid, ownsUid: true }),
    }).catch((error: unknown) => {
      if (uid !== undefined) options.uids?.release(uid);
      throw error;
    });
    let bind: SandboxBind | undefined;
    let closed = false;
    const finish = async () => {
      if (closed) return;
      closed = true;
      await sandbox.close().finally(() => {
        if (uid !== undefined) options.uids?.release(uid);
        staged.release(bind);
      });
    };
    try {
      bind = await staged.take();
      const proc = await sandbox.start(
        {
          argv: [spec.command, ...(spec.args ?? [])],
          env,
          binds: [
            ...(bind ? [bind] : []),
            ...(options.builtinDir
              ? [
                  {
                    path: options.builtinDir,
                    mode: "ro" as const,
                    target: BUILTIN_CONNECTORS_INSIDE,
                  },
                ]
              : []),
          ],
        },
        {},
      );
      proc.stderr.resume();
      return processTransport(proc, finish);
    } catch (error) {
      await finish().catch(() => undefined);
      throw error;
    }
  };
};
