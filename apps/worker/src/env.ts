/**
 * The worker's environment, read once and validated at boot. A bad value stops the process
 * with a message that names the variable.
 */
import {
  databaseEnv,
  describeEnvIssues,
  egressEnv,
  masterKeyEnv,
  observabilityEnv,
  redisEnv,
} from "@switchyard/core/config";
import { homedir } from "node:os";
import path from "node:path";
import { z } from "zod";

const priceTableSchema = z.record(
  z.string().min(1),
  z
    .object({
      input: z.number().min(0),
      output: z.number().min(0),
      cacheRead: z.number().min(0).optional(),
      cacheWrite: z.number().min(0).optional(),
    })
    .strict(),
);

/** The agents folder when SWITCHYARD_AGENTS_DIR is empty. */
export const defaultAgentsDir = () => path.join(homedir(), ".cache/switchyard/agents");
/** The connectors folder when SWITCHYARD_CONNECTORS_DIR is empty. */
export const defaultConnectorsDir = () => path.join(homedir(), ".cache/switchyard/connectors");

/** The worker's environment variables, with their checks and defaults. */
export const workerEnvSchema = z.object({
  ...databaseEnv,
  ...redisEnv,
  ...masterKeyEnv,
  ...observabilityEnv,
  ...egressEnv,
  /** The dashboard's address (as the web app's AUTH_URL); notifications link to runs under it. */
  AUTH_URL: z.string().default(""),
  /** SMTP server for mail to those who may answer a wait that opened (empty: no mail), and its From:. */
  SWITCHYARD_SMTP_URL: z.union([z.literal(""), z.url({ protocol: /^smtps?$/ })]).default(""),
  SWITCHYARD_SMTP_FROM: z.string().min(3).default("Switchyard <switchyard@localhost>"),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(4),
  SWITCHYARD_WORKSPACES_DIR: z.string().default(""),
  SWITCHYARD_SANDBOX: z.enum(["auto", "strict", "namespaces", "none"]).default("auto"),
  /** How long a job's lock lasts; a worker that dies holding a run loses it after this. */
  SWITCHYARD_JOB_LOCK_MS: z.coerce.number().int().min(1000).default(30_000),
  /**
   * How often the requeue sweep looks for open runs whose job Redis lost, and how old a run
   * (or a finished job of an open run) must be before the sweep takes it up.
   */
  SWITCHYARD_REQUEUE_SWEEP_MS: z.coerce.number().int().min(500).default(30_000),
  SWITCHYARD_REQUEUE_MIN_AGE_MS: z.coerce.number().int().min(500).default(10_000),
  /**
   * How long a run's writes (its progress, its tool calls) wait for an unreachable database
   * before the run is left to be resumed once it is back.
   */
  SWITCHYARD_DB_OUTAGE_MS: z.coerce.number().int().min(1000).default(60_000),
  /**
   * How many runs of any one team may run at once, whatever the team set (a team's own
   * limit may only be lower); empty: no limit but the team's. Keeps one team from taking
   * every worker slot.
   */
  SWITCHYARD_TEAM_RUN_LIMIT: z
    .union([z.literal(""), z.coerce.number().int().min(1).max(100_000)])
    .default("")
    .transform((v) => (v === "" ? null : v)),
  /**
   * How long a tool call held for a person's approval stays open before its step is suspended
   * (the agent's session kept with the run, the worker slot freed: docs/governance.md).
   */
  SWITCHYARD_APPROVAL_HOLD_MS: z.coerce.number().int().min(0).max(3_600_000).default(120_000),
  /**
   * How often a held call reads its wait when no answer is announced (an answer wakes it at
   * once over Redis; this is the fallback for a lost message or Redis down).
   */
  SWITCHYARD_WAIT_POLL_MS: z.coerce.number().int().min(50).max(3_600_000).default(1000),
  /** On SIGTERM, how long active runs may go on before the worker leaves them to be resumed elsewhere. */
  SWITCHYARD_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  /**
   * How a step's process starts: `per-step`, a sandbox of its own; `per-run`, a fork and
   * exec by one resident launcher in the run's sandbox (see docs/sandbox.md).
   */
  SWITCHYARD_STEP_LAUNCHER: z.enum(["per-step", "per-run"]).default("per-step"),
  /** Whether shell steps, and stdio connectors whose definition does not say, have a network (never link-local or metadata addresses at strict). */
  SWITCHYARD_STEP_NETWORK: z
    .enum(["true", "false"])
    .default("true")
    .transform((v) => v === "true"),
  /** The GitHub REST API workflows' github.* operation states call (GitHub Enterprise: https://host/api/v3). */
  SWITCHYARD_GITHUB_API_URL: z.url({ protocol: /^https?$/ }).default("https://api.github.com"),
  /**
   * Model endpoints (base URLs) an openai_compatible step's `options.base_url` may fall
   * under, comma-separated; none allowed when empty. Until teams configure their own.
   */
  SWITCHYARD_MODEL_ENDPOINTS: z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((e) => e.trim())
        .filter(Boolean),
    ),
  /**
   * The loopback port of the built-in demo model (a recorded agent session the demo
   * workflow runs against, no key needed); 0: no demo model.
   */
  SWITCHYARD_DEMO_MODEL_PORT: z.coerce.number().int().min(0).max(65_535).default(0),
  /** Where `npm run agents:install` puts the agent CLIs; ~/.cache/switchyard/agents when empty. */
  SWITCHYARD_AGENTS_DIR: z.string().default(""),
  /** Where an admin installs stdio connector packages (`npm install --prefix`), seen by connectors at /opt/connectors; ~/.cache/switchyard/connectors when empty. */
  SWITCHYARD_CONNECTORS_DIR: z.string().default(""),
  /** Live connector processes and clients a worker keeps at most, and how long an unused one stays up. */
  SWITCHYARD_CONNECTORS_MAX: z.coerce.number().int().min(1).max(1024).default(32),
  SWITCHYARD_CONNECTOR_IDLE_MS: z.coerce.number().int().min(1000).default(300_000),
  /**
   * Prices (USD per million tokens) over the built-in table, as JSON:
   * {"my-model": {"input": 1, "output": 2, "cacheRead": 0.1, "cacheWrite": 1.25}}.
   */
  SWITCHYARD_MODEL_PRICES: z
    .string()
    .default("{}")
    .transform((text, ctx) => {
      if (text.trim() === "") return {};
      try {
        return priceTableSchema.parse(JSON.parse(text));
      } catch (error) {
        ctx.addIssue({
          code: "custom",
          message: `not a price table (${error instanceof Error ? error.message.split("\n")[0] : String(error)})`,
        });
        return z.NEVER;
      }
    }),
  /**
   * The workspace kept as each agent attempt starts, for replays: its files together (and
   * any one file) at most this many bytes, or it is not kept (a run event says so); 0: none
   * is kept.
   */
  SWITCHYARD_SNAPSHOT_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(64 * 1024 * 1024),
  /** What one team's snapshot contents may hold together, in bytes; past it new snapshots are not kept. */
  SWITCHYARD_SNAPSHOT_TEAM_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(1024 * 1024 * 1024),
  /** Snapshots older than this many days are removed (their contents once no snapshot names them). */
  SWITCHYARD_SNAPSHOT_RETENTION_DAYS: z.coerce.number().min(1).max(36_500).default(30),
  SWITCHYARD_STEP_UID_BASE: z.coerce
    .number()
    .int()
    .min(1000)
    .max(2 ** 31 - 1)
    .default(60000),
  SWITCHYARD_WORKER_ID: z
    .string()
    .regex(/^([A-Za-z0-9._-]{1,64})?$/, "letters, digits, . _ - only")
    .default(""),
});

export type WorkerEnv = z.infer<typeof workerEnvSchema>;

/** A bad environment, with a message that names each bad variable. */
export class EnvError extends Error {}

/** The validated environment; throws EnvError when a value is missing or bad. */
export const readWorkerEnv = (source: NodeJS.ProcessEnv = process.env): WorkerEnv => {
  const parsed = workerEnvSchema.safeParse(source);
  if (parsed.success) return parsed.data;
  throw new EnvError(describeEnvIssues(parsed.error.issues, source));
};
