/**
 * The environment variables web and worker share, as zod fields each app spreads into its
 * own schema, so a variable means and is checked the same in both. Pure schemas: each app
 * passes its environment in; core never reads it.
 */
import { z } from "zod";
import { parseEgressAllowList } from "../egress/egress-policy";

const urlWith = (protocols: string[], needsPath: boolean, message: string) =>
  z.string().refine((v) => {
    try {
      const u = new URL(v);
      return (
        protocols.includes(u.protocol) && u.hostname !== "" && (!needsPath || u.pathname.length > 1)
      );
    } catch {
      return false;
    }
  }, message);

const isKey = (base64: string) => Buffer.from(base64, "base64").length === 32;

export const databaseEnv = {
  DATABASE_URL: urlWith(
    ["postgres:", "postgresql:"],
    true,
    "must be a postgresql://user:password@host:port/database URL",
  ),
};

export const redisEnv = {
  REDIS_URL: urlWith(["redis:", "rediss:"], false, "must be a redis://:password@host:port/db URL"),
  SWITCHYARD_QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_-]+$/, "letters, digits, : _ - only")
    .default("switchyard"),
};

export const masterKeyEnv = {
  SWITCHYARD_MASTER_KEY: z.string().refine(isKey, "must be 32 random bytes, base64-encoded"),
  SWITCHYARD_MASTER_KEY_ID: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,32}$/, "1 to 32 letters, digits, _ . - only")
    .default("k1"),
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
          if (!id || !key || !isKey(key)) {
            ctx.addIssue({
              code: "custom",
              message: "must be id:base64-of-32-bytes pairs, comma-separated",
            });
            return [];
          }
          return [{ id, key }];
        }),
    ),
};

export const observabilityEnv = {
  OTEL_EXPORTER_OTLP_ENDPOINT: z.union([z.literal(""), z.url()]).optional(),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
};

/** One line per bad variable, naming it; a variable that is absent or empty "is not set". */
export const describeEnvIssues = (
  issues: readonly z.core.$ZodIssue[],
  source: Record<string, string | undefined>,
) =>
  `invalid environment:\n${issues
    .map((i) => {
      const name = i.path.join(".");
      const missing = source[name] === undefined || source[name] === "";
      return `  ${name}: ${missing ? "is not set" : i.message}`;
    })
    .join("\n")}`;

/**
 * SWITCHYARD_EGRESS_ALLOW: destinations outside the egress rule that requests made on a
 * user's behalf may still reach (internal servers a team really means to use): CIDRs,
 * addresses and host names (`*.` for a domain), comma-separated. Empty: public https only.
 */
export const egressEnv = {
  SWITCHYARD_EGRESS_ALLOW: z
    .string()
    .default("")
    .transform((v, ctx) => {
      try {
        return parseEgressAllowList(v);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: (error as Error).message });
        return z.NEVER;
      }
    }),
};
