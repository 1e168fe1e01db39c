/**
 * The web app's environment, validated once. `instrumentation.ts` reads it at server boot,
 * so a bad value stops the server with a message that names the variable.
 */
import { z } from "zod";

export const webEnvSchema = z.object({
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\/[^/]+\/.+/, "must be a postgresql://user:password@host:port/database URL"),
  REDIS_URL: z.string().regex(/^rediss?:\/\/.+/, "must be a redis://:password@host:port/db URL"),
  SWITCHYARD_QUEUE_PREFIX: z.string().regex(/^[A-Za-z0-9:_-]+$/).default("switchyard"),
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters"),
  SWITCHYARD_MASTER_KEY: z.string().refine((v) => Buffer.from(v, "base64").length === 32, "must be 32 random bytes, base64-encoded"),
  SWITCHYARD_MASTER_KEY_ID: z.string().regex(/^[A-Za-z0-9_.-]{1,32}$/).default("k1"),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.union([z.literal(""), z.url()]).optional(),
  SWITCHYARD_TRUSTED_PROXIES: z.coerce.number().int().min(0).max(10).default(0),
});

export type WebEnv = z.infer<typeof webEnvSchema>;

let cached: WebEnv | undefined;

export const env = (): WebEnv => {
  if (cached) return cached;
  const parsed = webEnvSchema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const name = i.path.join(".");
      return `  ${name}: ${process.env[name] ? i.message : "is not set"}`;
    });
    throw new Error(`invalid environment:\n${lines.join("\n")}`);
  }
  cached = parsed.data;
  return cached;
};
