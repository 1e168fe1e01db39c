/**
 * The worker's environment, read once and validated at boot. A bad value stops the process
 * with a message that names the variable.
 */
import { z } from "zod";

const postgresUrl = z
  .string()
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === "postgres:" || u.protocol === "postgresql:") && u.hostname !== "" && u.pathname.length > 1;
    } catch {
      return false;
    }
  }, "must be a postgresql://user:password@host:port/database URL");

const redisUrl = z
  .string()
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === "redis:" || u.protocol === "rediss:") && u.hostname !== "";
    } catch {
      return false;
    }
  }, "must be a redis://:password@host:port/db URL");

export const workerEnvSchema = z.object({
  DATABASE_URL: postgresUrl,
  REDIS_URL: redisUrl,
  SWITCHYARD_QUEUE_PREFIX: z.string().regex(/^[A-Za-z0-9:_-]+$/).default("switchyard"),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(4),
  SWITCHYARD_WORKSPACES_DIR: z.string().default(""),
  SWITCHYARD_SANDBOX: z.enum(["auto", "strict", "namespaces", "none"]).default("auto"),
  /** How long a job's lock lasts; a worker that dies holding a run loses it after this. */
  SWITCHYARD_JOB_LOCK_MS: z.coerce.number().int().min(1000).default(30_000),
  /** On SIGTERM, how long active runs may go on before the worker leaves them to be resumed elsewhere. */
  SWITCHYARD_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  SWITCHYARD_STEP_NETWORK: z
    .enum(["true", "false"])
    .default("true")
    .transform((v) => v === "true"),
  /**
   * Model endpoints (base URLs) an openai_compatible step's `options.base_url` may fall
   * under, comma-separated; none allowed when empty. Until teams configure their own.
   */
  SWITCHYARD_MODEL_ENDPOINTS: z
    .string()
    .default("")
    .transform((v) => v.split(",").map((e) => e.trim()).filter(Boolean)),
  SWITCHYARD_STEP_UID_BASE: z.coerce.number().int().min(1000).max(2 ** 31 - 1).default(60000),
  SWITCHYARD_WORKER_ID: z.string().regex(/^([A-Za-z0-9._-]{1,64})?$/, "letters, digits, . _ - only").default(""),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.union([z.literal(""), z.url()]).optional(),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  SWITCHYARD_MASTER_KEY: z
    .string()
    .refine((v) => Buffer.from(v, "base64").length === 32, "must be 32 random bytes, base64-encoded"),
  SWITCHYARD_MASTER_KEY_ID: z.string().regex(/^[A-Za-z0-9_.-]{1,32}$/).default("k1"),
  /** Earlier master keys that may still open credentials, as `id:base64,id:base64`. */
  SWITCHYARD_MASTER_KEYS_RETIRED: z
    .string()
    .default("")
    .transform((v, ctx) =>
      v
        .split(",")
        .filter(Boolean)
        .flatMap((pair) => {
          const [id, key] = pair.split(":");
          if (!id || !key || Buffer.from(key, "base64").length !== 32) {
            ctx.addIssue({ code: "custom", message: "must be id:base64-of-32-bytes pairs, comma-separated" });
            return [];
          }
          return [{ id, key }];
        }),
    ),
});

export type WorkerEnv = z.infer<typeof workerEnvSchema>;

export class EnvError extends Error {}

export const readWorkerEnv = (source: NodeJS.ProcessEnv = process.env): WorkerEnv => {
  const parsed = workerEnvSchema.safeParse(source);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((i) => {
    const name = i.path.join(".");
    const missing = source[name] === undefined || source[name] === "";
    return `  ${name}: ${missing ? "is not set" : i.message}`;
  });
  throw new EnvError(`invalid environment:\n${lines.join("\n")}`);
};
