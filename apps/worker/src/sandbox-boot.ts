/**
 * Readies step confinement at worker boot: the workspaces root (absolute, traversable so
 * step uids can reach their run folders, not listable) with this worker's own folder of
 * runs in it, the step-uid pool, a sweep of whatever a previous worker with this owner id
 * left (its processes, then the run folders it could not remove), and the self-test that
 * decides the sandbox level every step of this worker runs at (failing, when none works,
 * with how to install bubblewrap), then the network filter that keeps link-local and cloud
 * metadata addresses out of reach of every sandbox with a network (steps and stdio
 * connectors), or a log line saying why there is none. A sandbox
 * (openSandbox) opened on the host it returns runs at that level without testing
 * again.
 */
import { access, chmod, mkdir, readdir, stat } from "node:fs/promises";
import path from "node:path";
import { AppError } from "@switchyard/core/errors";
import {
  BLOCKED_FROM_SANDBOXES,
  createUidPool,
  findSandboxHost,
  removeFolder,
  startNetworkFilter,
  sweepLeftovers,
  useSpawnServer,
  type NetworkFilter,
  type SandboxHost,
  type UidPool,
} from "@switchyard/core/sandbox";
import type { WorkerEnv } from "./env";
import type { Logger } from "./logger";

export type StepConfinement = {
  sandbox: SandboxHost;
  uids: UidPool | undefined;
  /** Uids of stdio connector processes, after the steps' range: SWITCHYARD_STEP_UID_BASE + WORKER_CONCURRENCY, SWITCHYARD_CONNECTORS_MAX of them. */
  connectorUids: UidPool | undefined;
  workspacesDir: string;
  /** This worker's run folders (`<runsDir>/<runId>`): workers sharing a host never sweep each other's. */
  runsDir: string;
  /** The filter keeping link-local and metadata addresses from sandboxes; undefined where the worker cannot filter. */
  networkFilter: NetworkFilter | undefined;
};

const BLOCKED = [...BLOCKED_FROM_SANDBOXES.ipv4, ...BLOCKED_FROM_SANDBOXES.ipv6].join(", ");

/**
 * The filter for the uids of every sandbox of this worker, kept up: if its nft process ends
 * the worker says so and starts it again, and when that fails `onFailed` is told (the worker
 * then stops taking work rather than run sandboxes unfiltered).
 */
const filterSandboxNetwork = async (
  sandbox: SandboxHost,
  uids: { first: number; count: number } | undefined,
  ownerId: string,
  log: Logger,
  onFailed: (reason: string) => void,
) => {
  const started =
    sandbox.level !== "strict" || !uids
      ? {
          unavailable: `sandboxes run as the worker's own uid (sandbox level ${sandbox.level}), so their packets cannot be told from the worker's`,
        }
      : await startNetworkFilter({ owner: ownerId, uids: [uids] });
  if (!("filter" in started)) {
    log.warn(
      `network filter off: ${started.unavailable}. A step or stdio connector with a network can reach link-local and cloud metadata addresses (${BLOCKED}) from this host; see docs/sandbox.md`,
      { sandboxLevel: sandbox.level },
    );
    return undefined;
  }
  const range = `${uids!.first}-${uids!.first + uids!.count - 1}`;
  log.info(
    "network filter on: sandboxes with a network cannot reach link-local or cloud metadata addresses",
    { table: started.filter.table, uids: range, blocked: BLOCKED },
  );
  let current = started.filter;
  const watch = (filter: NetworkFilter) =>
    filter.onLost((reason) => {
      log.error("the network filter ended; starting it again", { reason });
      void startNetworkFilter({ owner: ownerId, uids: [uids!] }).then((again) => {
        if ("filter" in again) {
          current = again.filter;
          watch(current);
          log.info("network filter on again", { table: current.table, uids: range });
        } else onFailed(again.unavailable);
      });
    });
  watch(current);
  return {
    get table() {
      return current.table;
    },
    onLost: (l: (reason: string) => void) => current.onLost(l),
    close: () => current.close(),
  } satisfies NetworkFilter;
};

/** The folder of one owner's runs inside the workspaces root. */
export const runsDirOf = (workspacesDir: string, ownerId: string) =>
  path.join(workspacesDir, `runs-${ownerId.replace(/[^A-Za-z0-9._-]/g, "_")}`);

/** Removes the run folders a previous worker of this owner left (it crashed, or a removal failed). */
const sweepRunFolders = async (runsDir: string, log: Logger) => {
  for (const name of await readdir(runsDir)) {
    const folder = path.join(runsDir, name);
    try {
      await removeFolder(folder);
      log.warn("removed a run folder left by a previous worker", { folder });
    } catch (error) {
      log.error("cannot remove a run folder left by a previous worker; the next boot tries again", {
        folder,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
};

/** Every ancestor must be enterable by other users, or bwrap cannot resolve binds as the step uid. */
const checkTraversable = async (dir: string) => {
  for (let d = path.dirname(dir); ; d = path.dirname(d)) {
    const s = await stat(d);
    if ((s.mode & 0o001) === 0) {
      throw new AppError(
        "SYSTEM.SANDBOX_UNAVAILABLE",
        `SWITCHYARD_WORKSPACES_DIR: ${dir} is below ${d}, which step users cannot enter (mode ${(s.mode & 0o777).toString(8)}); choose a folder outside it (e.g. /var/lib/switchyard/workspaces)`,
      );
    }
    if (d === path.dirname(d)) return;
  }
};

export const bootConfinement = async (
  env: WorkerEnv,
  ownerId: string,
  log: Logger,
  onNetworkFilterFailed: (reason: string) => void = () => undefined,
): Promise<StepConfinement> => {
  const workspacesDir = path.resolve(
    env.SWITCHYARD_WORKSPACES_DIR ||
      (process.getuid?.() === 0 ? "/var/lib/switchyard/workspaces" : ".data/workspaces"),
  );
  await mkdir(workspacesDir, { recursive: true, mode: 0o711 });
  await chmod(workspacesDir, 0o711);
  await access(workspacesDir);
  // Sandboxes are started by a small resident process: a fork of the worker would copy its
  // page tables for each one (spawn-server.ts).
  useSpawnServer();
  const root = process.getuid?.() === 0;
  const strictPossible =
    root && env.SWITCHYARD_SANDBOX !== "namespaces" && env.SWITCHYARD_SANDBOX !== "none";
  if (strictPossible) await checkTraversable(workspacesDir);

  const uids = root
    ? createUidPool(env.SWITCHYARD_STEP_UID_BASE, env.WORKER_CONCURRENCY)
    : undefined;
  const connectorUids = root
    ? createUidPool(
        env.SWITCHYARD_STEP_UID_BASE + env.WORKER_CONCURRENCY,
        env.SWITCHYARD_CONNECTORS_MAX,
      )
    : undefined;
  const swept = await sweepLeftovers(ownerId, {
    uids: uids && connectorUids ? [...uids.uids, ...connectorUids.uids] : undefined,
  });
  if (swept.killed.length > 0) {
    log.warn("killed processes left by a previous worker", {
      ownerId,
      killed: swept.killed.length,
    });
  }
  // Nothing of the previous worker runs any more, so its folders can go.
  const runsDir = runsDirOf(workspacesDir, ownerId);
  await mkdir(runsDir, { recursive: true, mode: 0o711 });
  await chmod(runsDir, 0o711);
  await sweepRunFolders(runsDir, log);

  const sandbox = await findSandboxHost({
    mode: env.SWITCHYARD_SANDBOX,
    ownerId,
    scratchDir: workspacesDir,
    probeUid: uids?.uids[0],
    optOut: "for development only, run steps unconfined with SWITCHYARD_SANDBOX=none",
  });
  for (const warning of sandbox.warnings) log.warn(warning, { sandboxLevel: sandbox.level });
  if (sandbox.level === "none") {
    log.warn(
      "SANDBOX DISABLED: steps run unconfined with the worker's privileges (SWITCHYARD_SANDBOX=none); development only",
    );
  }
  const strict = sandbox.level === "strict";
  const allUids =
    strict && uids
      ? {
          first: env.SWITCHYARD_STEP_UID_BASE,
          count: env.WORKER_CONCURRENCY + env.SWITCHYARD_CONNECTORS_MAX,
        }
      : undefined;
  const networkFilter = await filterSandboxNetwork(
    sandbox,
    allUids,
    ownerId,
    log,
    onNetworkFilterFailed,
  );
  return {
    sandbox,
    uids: strict ? uids : undefined,
    connectorUids: strict ? connectorUids : undefined,
    workspacesDir,
    runsDir,
    networkFilter,
  };
};
