/**
 * The web app's environment, validated once. `instrumentation.ts` reads it at server boot,
 * so a bad value stops the server with a message that names the variable.
 */
import { databaseEnv, describeEnvIssues, masterKeyEnv, observabilityEnv, redisEnv } from "@switchyard/core/config";
import { z } from "zod";

export const webEnvSchema = z.object({
  ...databaseEnv,
  ...redisEnv,
  ...masterKeyEnv,
  ...observabilityEnv,
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters"),
  /** The address people reach the dashboard at; OAuth callbacks of connectors are built from it. */
  AUTH_URL: z.union([z.literal(""), z.url({ protocol: /^https?$/ })]).optional(),
  SWITCHYARD_TRUSTED_PROXIES: z.coerce.number().int().min(0).max(10).default(0),
});

export type WebEnv = z.infer<typeof webEnvSchema>;

let cached: WebEnv | undefined;

export const env = (): WebEnv => {
  if (cached) return cached;
  const parsed = webEnvSchema.safeParse(process.env);
  if (!parsed.success) throw new Error(describeEnvIssues(parsed.error.issues, process.env));
  cached = parsed.data;
  return cached;
};
