/**
 * Worker entry: validates the environment, connects to Postgres and Redis, and executes
 * runs from the BullMQ queue until SIGTERM/SIGINT, then drains and exits.
 */
import { describeLimitPlace } from "@switchyard/core/governance";
import { rm } from "node:fs/promises";
import { hostname } from "node:os";
import path from "node:path";
import { DelayedError, Queue, Worker, UnrecoverableError } from "bullmq";
import { Redis } from "ioredis";
import { keyringOf, parseMasterKey } from "@switchyard/core/crypto";
import { AppError } from "@switchyard/core/errors";
import {
  CONNECTOR_CALL_QUEUE,
  connectorCallJobSchema,
  LOCK_LOST,
  RUN_QUEUE,
  runCancelChannel,
  runJobSchema,
  runUpdatesChannel,
  waitAnsweredChannel,
  RESUME_NOW,
  TEAM_LIMITED,
  teamLimitDelayMs,
  type RunJob,
} from "@switchyard/core/runs";
import { closeLostStepRuns, createDb, finishRun, readInstanceSettings } from "@switchyard/db";
import { startModelGateway } from "@switchyard/core/gateway";
import { installedAgentVersions } from "@switchyard/core/providers";
import { defaultAgentsDir, defaultConnectorsDir, EnvError, readWorkerEnv } from "./env";
import { teamModelAccess } from "./model-access";
import { callConnectorByHand } from "./connector-console";
import { sandboxedStdio, sweepStagedConnectors } from "./connector-sandbox";
import { buildDemoConnector } from "./demo-connector";
import { startDemoModel } from "./demo-model";
import { closeEgress, workerEgress } from "./egress";
import { logDrift } from "./drift-log";
import { executeRun } from "./execute-run";
import { createWaitWakers } from "./wait-wakers";
import { auditRefusedForm } from "./elicitation-waits";
import { createWorkerConnectors } from "./team-connectors";
import { liveTwin, startHeartbeat } from "./heartbeat";
import { startRequeueSweep } from "./requeue-sweep";
import { startSnapshotSweep } from "./snapshot-sweep";
import { startWaitExpiry } from "./wait-expiry";
import { teamWaiters } from "./team-waiters";
import { bootConfinement } from "./sandbox-boot";
import { createLogger } from "./logger";
import { startTelemetry } from "./telemetry";
import { tracedFetch } from "./traced-fetch";
import { resealLegacySecrets } from "./team-variables";
import { startTriggerWorkers } from "./triggers/trigger-workers";

const fatal = (message: string): never => {
  process.stderr.write(`switchyard-worker: ${message}\n`);
  process.exit(1);
};

const env = (() => {
  try {
    return readWorkerEnv();
  } catch (e) {
    return fatal(e instanceof EnvError ? e.message : String(e));
  }
})();

const ownerId = env.SWITCHYARD_WORKER_ID || hostname();
const workerId = `${ownerId}:${process.pid}`;
const keyring = keyringOf(
  parseMasterKey(env.SWITCHYARD_MASTER_KEY_ID, env.SWITCHYARD_MASTER_KEY),
  env.SWITCHYARD_MASTER_KEYS_RETIRED.map((k) => parseMasterKey(k.id, k.key)),
);
const log = createLogger(env.LOG_LEVEL, { service: "worker", workerId });
const telemetry = await startTelemetry(env.OTEL_EXPORTER_OTLP_ENDPOINT, "switchyard-worker");

const db = createDb(env.DATABASE_URL, { max: env.WORKER_CONCURRENCY + 2 });
try {
  await db.$queryRaw`SELECT 1`;
} catch (e) {
  const where = new URL(env.DATABASE_URL);
  fatal(
    `DATABASE_URL: cannot connect to ${where.hostname}:${where.port || 5432}${where.pathname} (${(e as Error).message.split("\n")[0]})`,
  );
}
// Secrets sealed before envelopes bound the variable's name open only once re-sealed; the
// master key lives only here and in the web app, so the worker does it before taking runs.
try {
  const { resealed, skipped } = await resealLegacySecrets(db, keyring);
  if (resealed > 0) log.info("re-sealed secrets to bind their variable names", { resealed });
  if (skipped.length > 0)
    log.warn("left secrets that could not be re-sealed; they will not open until set again", {
      credentialIds: skipped,
    });
} catch (e) {
  fatal(`could not re-seal stored secrets: ${(e as Error).message}`);
}

const connection = new Redis(env.REDIS_URL, { maxRetriesPerRequest: null, lazyConnect: true });
// ioredis reconnects by itself; without a listener an error event would crash the process.
// Log each distinct error once until the connection is ready again, not on every retry.
const watchRedis = (redis: Redis, role: string) => {
  let last = "";
  redis.on("error", (e: Error) => {
    if (e.message !== last) log.warn("redis connection error", { role, error: e.message });
    last = e.message;
  });
  redis.on("ready", () => {
    if (last) log.info("redis connection back", { role });
    last = "";
  });
};
watchRedis(connection, "commands");
try {
  await connection.connect();
  await connection.ping();
} catch (e) {
  const where = new URL(env.REDIS_URL);
  fatal(
    `REDIS_URL: cannot connect to ${where.hostname}:${where.port || 6379} (${(e as Error).message})`,
  );
}

const twin = await liveTwin(connection, env.SWITCHYARD_QUEUE_PREFIX, ownerId);
if (twin) {
  fatal(
    `SWITCHYARD_WORKER_ID: "${ownerId}" is in use by live worker ${twin} on this host; give each worker its own SWITCHYARD_WORKER_ID and SWITCHYARD_STEP_UID_BASE`,
  );
}
// Sandboxes never run unfiltered where the worker can filter: a filter it cannot start again stops it.
let stopForFilter: (reason: string) => void = (reason) =>
  fatal(`the network filter could not be started again: ${reason}`);
const confinement = await bootConfinement(env, ownerId, log, (reason) =>
  stopForFilter(reason),
).catch((e: unknown) => fatal(e instanceof Error ? e.message : String(e)));
log.info("sandbox ready", {
  sandboxLevel: confinement.sandbox.level,
  workspaces: confinement.workspacesDir,
});

// The model gateway: agent CLIs get a per-step token and reach models only through it.
// Its socket is bound into each step sandbox; a previous worker's socket is replaced.
const gatewaySocket = path.join(
  confinement.workspacesDir,
  `gateway-${ownerId.replace(/[^A-Za-z0-9._-]/g, "_")}.sock`,
);
await rm(gatewaySocket, { force: true });
const egress = workerEgress(env.SWITCHYARD_EGRESS_ALLOW);
if (env.SWITCHYARD_EGRESS_ALLOW.text)
  log.info("egress allow-list", { allow: env.SWITCHYARD_EGRESS_ALLOW.text });
const gateway = await startModelGateway({
  socketPath: gatewaySocket,
  egress: egress.list,
  prices: env.SWITCHYARD_MODEL_PRICES,
  log: (level, message, fields) => log[level](`model gateway: ${message}`, fields ?? {}),
}).catch((e: unknown) =>
  fatal(`could not start the model gateway: ${e instanceof Error ? e.message : String(e)}`),
);
const agentsDir = env.SWITCHYARD_AGENTS_DIR || defaultAgentsDir();
for (const { agent, pinned, installed, drift } of installedAgentVersions(agentsDir))
  if (drift && installed) logDrift(log, { agent, pinned, installed });

// Connectors: one pool per worker; a stdio connector runs in a sandbox of its own, and its
// credential (the team's or a member's) is resolved per pool id by the step that uses it.
/** Whether stdio connectors may run a command from outside the connectors folder: the instance setting, read as each connector is opened and started, so turning it off holds at once. */
const allowAnyConnectorCommand = async () =>
  (await readInstanceSettings(db)).allowAnyConnectorCommand;
await sweepStagedConnectors(confinement.workspacesDir, ownerId);
// The connectors shipped with Switchyard (the demo connector), built for this worker alone.
const builtinConnectorsDir = await buildDemoConnector(
  path.join(
    confinement.workspacesDir,
    `.builtin-connectors-${ownerId.replace(/[^A-Za-z0-9._-]/g, "_")}`,
  ),
).catch((e: unknown) =>
  fatal(`could not build the demo connector: ${e instanceof Error ? e.message : String(e)}`),
);
// The demo model: a recorded agent session on loopback, for trying Switchyard without a key.
const demoModel =
  env.SWITCHYARD_DEMO_MODEL_PORT > 0
    ? await startDemoModel(env.SWITCHYARD_DEMO_MODEL_PORT, (level, message, fields) =>
        log[level](message, fields ?? {}),
      ).catch((e: unknown) =>
        fatal(
          `SWITCHYARD_DEMO_MODEL_PORT: could not start the demo model: ${e instanceof Error ? e.message : String(e)}`,
        ),
      )
    : undefined;
const connectors = createWorkerConnectors({
  allowAnyCommand: allowAnyConnectorCommand,
  oauthFetch: egress.oauth,
  httpFetch: tracedFetch(egress.connector),
  openStdio: sandboxedStdio({
    host: confinement.sandbox,
    uids: confinement.connectorUids,
    scratchDir: confinement.workspacesDir,
    connectorsDir: env.SWITCHYARD_CONNECTORS_DIR || defaultConnectorsDir(),
    builtinDir: builtinConnectorsDir,
    defaultNetwork: env.SWITCHYARD_STEP_NETWORK,
    allowAnyCommand: allowAnyConnectorCommand,
  }),
  maxLive: env.SWITCHYARD_CONNECTORS_MAX,
  idleMs: env.SWITCHYARD_CONNECTOR_IDLE_MS,
  onFormRefused: auditRefusedForm(db, log),
});

/**
 * How often a run's job may be found with its worker gone (killed, or too busy to renew its
 * lock) before BullMQ gives it up: each time, another worker resumes the run from its checkpoint.
 */
const MAX_STALLED = 10;
/** How often the workspace snapshot retention sweep runs. */
const SNAPSHOT_SWEEP_MS = 60 * 60 * 1000;
/** BullMQ's reason for a job given up that way. */
const STALLED_OUT = "job stalled more than allowable limit";

const updates = runUpdatesChannel(env.SWITCHYARD_QUEUE_PREFIX);
/** Calls held on a wait, woken when the web announces its answer (subscribed below). */
const waitWakers = createWaitWakers();
// Live views also poll while their stream is down, so a lost notice only delays them.
const notify = (runId: string) =>
  void connection
    .publish(updates, runId)
    .catch((e: Error) => log.debug("could not announce a run change", { runId, error: e.message }));

const triggerWorkers = await startTriggerWorkers({
  connection,
  prefix: env.SWITCHYARD_QUEUE_PREFIX,
  db,
  keyring,
  log,
  baseUrl: env.AUTH_URL || "http://localhost:3000",
  fetch: egress.notification,
  ...(env.SWITCHYARD_SMTP_URL
    ? { mail: { smtpUrl: env.SWITCHYARD_SMTP_URL, from: env.SWITCHYARD_SMTP_FROM } }
    : {}),
});

/** The runs this worker is executing now, by id (a run's job id is its run id). */
const executing = new Set<string>();
/** The run queue as this worker changes it: waiting runs promoted, lost jobs added again. */
const runQueue = new Queue<RunJob>(RUN_QUEUE, { connection, prefix: env.SWITCHYARD_QUEUE_PREFIX });
// Connection errors are the connection's watcher's to log.
runQueue.on("error", () => undefined);
/** Runs waiting under their team's limit: one of them is promoted when a run of the team ends. */
const waiters = teamWaiters({
  redis: connection,
  queue: runQueue,
  prefix: env.SWITCHYARD_QUEUE_PREFIX,
});
const quietly = (what: string, p: Promise<unknown>) =>
  void p.catch((e: Error) => log.debug(`could not ${what}`, { error: e.message }));

const worker = new Worker(
  RUN_QUEUE,
  async (job, token, signal) => {
    const data = runJobSchema.safeParse(job.data);
    if (!data.success) throw new UnrecoverableError(`bad job data: ${data.error.message}`);
    executing.add(data.data.runId);
    try {
      const status = await executeRun(
        {
          db,
          log,
          workerId,
          confinement,
          stepNetwork: env.SWITCHYARD_STEP_NETWORK,
          stepLauncher: env.SWITCHYARD_STEP_LAUNCHER,
          keyring,
          modelEndpoints: env.SWITCHYARD_MODEL_ENDPOINTS,
          modelFetch: egress.model,
          operations: {
            fetch: egress.operation,
            notifyFetch: egress.notification,
            githubApiUrl: env.SWITCHYARD_GITHUB_API_URL,
          },
          modelAccess: (teamId, vendor) => teamModelAccess(db, keyring, teamId, vendor),
          gateway,
          prices: env.SWITCHYARD_MODEL_PRICES,
          agentsDir,
          connectors,
          notify,
          ...(env.SWITCHYARD_SNAPSHOT_MAX_BYTES > 0
            ? {
                snapshots: {
                  maxBytes: env.SWITCHYARD_SNAPSHOT_MAX_BYTES,
                  teamBytes: env.SWITCHYARD_SNAPSHOT_TEAM_BYTES,
                },
              }
            : {}),
          outageMs: env.SWITCHYARD_DB_OUTAGE_MS,
          teamRunLimit: env.SWITCHYARD_TEAM_RUN_LIMIT,
          holdMs: env.SWITCHYARD_APPROVAL_HOLD_MS,
          waitWakers,
          waitPollMs: env.SWITCHYARD_WAIT_POLL_MS,
          onBudgetWarning: ({ teamId, runId, warning }) =>
            void triggerWorkers.budgetWarning({
              teamId,
              runId,
              amount: warning.amount,
              limit: describeLimitPlace(warning.limit),
            }),
          onWaitOpened: (wait) => void triggerWorkers.waitOpened(wait),
        },
        data.data,
        signal ?? new AbortController().signal,
        job.attemptsMade + 1 >= (job.opts.attempts ?? 1),
      );
      // Its team is at its limit: the job waits in the delayed set, not in this worker's slot.
      // Its wait was answered as it was about to park: its job runs it again at once.
      if (status === RESUME_NOW) {
        await job.moveToDelayed(Date.now(), token);
        throw new DelayedError();
      }
      // Parked on a person's answer: the job ends; the answer (or expiry) queues the run again.
      if (status === "waiting") return { status };
      if (status === TEAM_LIMITED) {
        await job.moveToDelayed(Date.now() + teamLimitDelayMs(Date.now() - job.timestamp), token);
        quietly(
          "note a waiting run",
          waiters.waiting(data.data.teamId, data.data.runId, job.timestamp),
        );
        throw new DelayedError();
      }
      // It waits no more; and a place under the team's limit may have freed, which the team's
      // oldest waiting run takes now.
      const { teamId, runId } = data.data;
      quietly(
        "promote a waiting run",
        waiters
          .done(teamId, runId)
          .then(() => (status === "taken over" ? undefined : waiters.promoteNext(teamId))),
      );
      // The status this worker has just written, or (skipped, taken over) none: then it is read.
      await triggerWorkers.runEnded(
        data.data.teamId,
        data.data.runId,
        ["succeeded", "failed", "cancelled"].includes(status) ? status : undefined,
      );
      return { status };
    } catch (error) {
      // Retrying cannot mend a bad request (an unknown run, say); infrastructure errors retry.
      if (error instanceof AppError && !error.retryable)
        throw new UnrecoverableError(`${error.code}: ${error.message}`);
      throw error;
    } finally {
      executing.delete(data.data.runId);
    }
  },
  {
    connection,
    prefix: env.SWITCHYARD_QUEUE_PREFIX,
    concurrency: env.WORKER_CONCURRENCY,
    // A run whose worker died is taken up again by another worker, which resumes it from
    // its checkpoint, once the lock has lapsed.
    lockDuration: env.SWITCHYARD_JOB_LOCK_MS,
    stalledInterval: env.SWITCHYARD_JOB_LOCK_MS,
    maxStalledCount: MAX_STALLED,
  },
);
// A job BullMQ gives up on does not come back. When it gives up without running it (the
// workers holding the run died more than MAX_STALLED times), nothing ended the run, which
// would stay `running` for ever: end it here, saying why.
const abandonRun = async ({ teamId, runId }: { teamId: string; runId: string }, reason: string) => {
  try {
    await closeLostStepRuns(db, teamId, runId);
    const { count } = await finishRun(db, teamId, runId, {
      status: "failed",
      errorCode: "SYSTEM.WORKER_LOST",
      errorMessage: `the run was given up: ${reason === STALLED_OUT ? `the workers running it stopped more than ${MAX_STALLED} times` : reason}`,
    });
    if (count === 0) return;
    log.warn("gave up a run whose job failed", { runId, reason });
    notify(runId);
    quietly("promote a waiting run", waiters.promoteNext(teamId));
    await triggerWorkers.runEnded(teamId, runId);
  } catch (e) {
    log.error("could not end a run whose job failed", { runId, error: (e as Error).message });
  }
};
worker.on("failed", (job, err) => {
  log.error("job failed", { jobId: job?.id, error: err.message });
  const data = runJobSchema.safeParse(job?.data);
  const final =
    err.name === "UnrecoverableError" ||
    (job !== undefined && job.attemptsMade >= (job.opts.attempts ?? 1));
  if (data.success && final) void abandonRun(data.data, err.message);
});
worker.on("error", (err) => log.error("queue worker error", { error: err.message }));
// A job whose lock could not be renewed (this worker stalled) may already be resumed by
// another worker: stop its processes here without ending the run.
worker.on("lockRenewalFailed", (jobIds) => {
  for (const id of jobIds)
    if (worker.cancelJob(id, LOCK_LOST))
      log.warn("lost the lock of a run; stopping it here", { runId: id });
});
await worker.waitUntilReady();

// The connector console: an admin's call of a connector tool by hand, answered here where
// connector processes and credentials live. Failures reach the web app as the job's reason.
const consoleWorker = new Worker(
  CONNECTOR_CALL_QUEUE,
  async (job) => {
    const data = connectorCallJobSchema.safeParse(job.data);
    if (!data.success) throw new UnrecoverableError(`bad job data: ${data.error.message}`);
    try {
      return await callConnectorByHand(
        { db, keyring, log, connectors, waitWakers, waitPollMs: env.SWITCHYARD_WAIT_POLL_MS },
        data.data,
      );
    } catch (error) {
      throw new UnrecoverableError(
        error instanceof AppError
          ? `${error.code}: ${error.message}`
          : error instanceof Error
            ? error.message
            : String(error),
      );
    }
  },
  { connection, prefix: env.SWITCHYARD_QUEUE_PREFIX, concurrency: 4 },
);
consoleWorker.on("error", (err) =>
  log.error("connector console queue error", { error: err.message }),
);
await consoleWorker.waitUntilReady();

// Cancellation requests reach every worker; the one holding the run aborts its signal.
const subscriber = connection.duplicate();
watchRedis(subscriber, "cancel subscription");
// So do answered waits: a call held on one reads it at once.
const cancels = runCancelChannel(env.SWITCHYARD_QUEUE_PREFIX);
const answers = waitAnsweredChannel(env.SWITCHYARD_QUEUE_PREFIX);
await subscriber.subscribe(cancels, answers);
subscriber.on("message", (channel: string, id: string) => {
  if (channel === answers) waitWakers.wake(id);
  else if (channel === cancels && worker.cancelJob(id, "cancelled by request"))
    log.info("cancelling run", { runId: id });
});
const heartbeat = startHeartbeat(
  connection,
  env.SWITCHYARD_QUEUE_PREFIX,
  {
    workerId,
    sandboxLevel: confinement.sandbox.level,
    concurrency: env.WORKER_CONCURRENCY,
  },
  agentsDir,
);
await heartbeat.first;

// Open runs whose job Redis lost (a restart without persistence) get it back; a run this
// worker still executes without its job is stopped here first, to be resumed from its checkpoint.
const requeue = startRequeueSweep({
  db,
  connection,
  queue: runQueue,
  prefix: env.SWITCHYARD_QUEUE_PREFIX,
  workerId,
  log,
  intervalMs: env.SWITCHYARD_REQUEUE_SWEEP_MS,
  minAgeMs: env.SWITCHYARD_REQUEUE_MIN_AGE_MS,
  // Redis may have come back empty: its job schedulers are made again from Postgres.
  onBack: () => triggerWorkers.resync(),
  stopHere: (runId) => {
    if (!executing.has(runId)) return false;
    if (worker.cancelJob(runId, LOCK_LOST))
      log.warn("the job of a run this worker executes is gone; stopping it here", { runId });
    return true;
  },
});
// Workspace snapshots past their retention go, and with them the contents nothing names.
const snapshotSweep = startSnapshotSweep({
  db,
  log,
  retentionDays: env.SWITCHYARD_SNAPSHOT_RETENTION_DAYS,
  intervalMs: SNAPSHOT_SWEEP_MS,
});
// Waits past their time are closed as their onExpiry says; the runs parked on them resume.
const waitExpiry = startWaitExpiry({ db, queue: runQueue, log });
log.info("worker ready", {
  queue: RUN_QUEUE,
  prefix: env.SWITCHYARD_QUEUE_PREFIX,
  concurrency: env.WORKER_CONCURRENCY,
});

let stopping = false;
/** Stops taking work and exits, with `code` (non-zero when the worker stops for a fault, so a supervisor sees it). */
const shutdown = async (sig: string, code = 0) => {
  if (stopping) return;
  stopping = true;
  log.info("shutting down", { signal: sig });
  // Active runs get a grace period to finish. Past it the worker exits without ending them:
  // their steps die with it, and once their job locks lapse another worker resumes each
  // run from its checkpoint. Shutting down is not cancelling.
  const grace = setTimeout(() => {
    log.warn(
      "runs still active after the grace period; leaving them to be resumed by another worker",
    );
    process.exit(code);
  }, env.SWITCHYARD_SHUTDOWN_GRACE_MS);
  await requeue.stop();
  await snapshotSweep.stop();
  await waitExpiry.stop();
  await worker.close();
  await runQueue.close().catch(() => undefined);
  await consoleWorker.close();
  await triggerWorkers.close();
  clearTimeout(grace);
  await heartbeat.stop();
  await gateway.close().catch(() => undefined);
  await demoModel?.close().catch(() => undefined);
  await connectors.pool.close().catch(() => undefined);
  await closeEgress(egress).catch(() => undefined);
  await confinement.networkFilter?.close().catch(() => undefined);
  await subscriber.quit().catch(() => undefined);
  await connection.quit().catch(() => undefined);
  await db.$disconnect();
  await telemetry.shutdown();
  process.exit(code);
};
stopForFilter = (reason) => {
  log.error(
    "the network filter could not be started again; stopping, so no sandbox runs unfiltered",
    { reason },
  );
  void shutdown("network filter lost", 1);
};
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
