/**
 * The web app's environment, validated once. `instrumentation.ts` reads it at server boot,
 * so a bad value stops the server with a message that names the variable.
 */
import {
  databaseEnv,
  describeEnvIssues,
  egressEnv,
  masterKeyEnv,
  observabilityEnv,
  redisEnv,
} from "@switchyard/core/config";
import { isClientIdUrl } from "@switchyard/core/connectors";
import { z } from "zod";

/** Sign-in tokens travel from the issuer: plain http only when it runs on this machine. */
const LOOPBACK_HTTP = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?(\/|$)/;

export const webEnvSchema = z
  .object({
    ...databaseEnv,
    ...redisEnv,
    ...masterKeyEnv,
    ...observabilityEnv,
    ...egressEnv,
    AUTH_SECRET: z.string().min(32, "must be at least 32 characters"),
    /** The address people reach the dashboard at; OAuth callbacks of connectors are built from it. */
    AUTH_URL: z.union([z.literal(""), z.url({ protocol: /^https?$/ })]).optional(),
    /**
     * Where Switchyard's OAuth client metadata document is published when not at
     * <AUTH_URL>/api/connectors/oauth/client-metadata.json (an https URL with a path), or "off".
     */
    SWITCHYARD_OAUTH_CLIENT_METADATA_URL: z
      .union([z.literal(""), z.literal("off"), z.url({ protocol: /^https$/ })])
      .optional()
      .refine(
        (url) => !url || url === "off" || isClientIdUrl(url),
        'must be an https URL with a path (no fragment, no user), or "off"',
      ),
    /** The GitHub REST API workflow packs are installed from (owner/repo releases); obeys SWITCHYARD_EGRESS_ALLOW. */
    SWITCHYARD_GITHUB_API_URL: z.url({ protocol: /^https?$/ }).default("https://api.github.com"),
    /** Folders under which a team may link a git repository by its local path, comma-separated; empty: none. */
    SWITCHYARD_GIT_LOCAL_ROOTS: z
      .string()
      .default("")
      .transform((text) =>
        text
          .split(",")
          .map((p) => p.trim())
          .filter(Boolean),
      )
      .refine(
        (paths) => paths.every((p) => p.startsWith("/")),
        "must be absolute paths, comma-separated",
      ),
    SWITCHYARD_TRUSTED_PROXIES: z.coerce.number().int().min(0).max(10).default(0),
    /** The worker's built-in demo model's port (0: none): Settings → Models labels its endpoint as the demo. */
    SWITCHYARD_DEMO_MODEL_PORT: z.coerce.number().int().min(0).max(65_535).default(0),
    /** Mail for password reset links (smtp:// or smtps://, user and password in the URL); unset: the admin is shown the link. */
    SWITCHYARD_SMTP_URL: z.union([z.literal(""), z.url({ protocol: /^smtps?$/ })]).optional(),
    SWITCHYARD_SMTP_FROM: z.string().min(3).default("Switchyard <switchyard@localhost>"),
    /** Sign-in through any OpenID Connect issuer, when all three are set. */
    SWITCHYARD_OIDC_ISSUER: z
      .union([z.literal(""), z.url({ protocol: /^https?$/ })])
      .optional()
      .refine(
        (url) => !url || url.startsWith("https://") || LOOPBACK_HTTP.test(url),
        "must be https (plain http only on this machine: localhost or 127.0.0.1)",
      ),
    SWITCHYARD_OIDC_CLIENT_ID: z.string().optional(),
    SWITCHYARD_OIDC_CLIENT_SECRET: z.string().optional(),
    /** The sign-in button's label, e.g. "Acme SSO". */
    SWITCHYARD_OIDC_NAME: z.string().min(1).max(40).default("single sign-on"),
    /** Emails of the installation's admins besides the seed's, comma-separated; each counts once its email is verified. */
    SWITCHYARD_INSTANCE_ADMINS: z
      .string()
      .default("")
      .transform((v, ctx) =>
        v
          .split(",")
          .map((e) => e.trim().toLowerCase())
          .filter(Boolean)
          .filter((e) => {
            if (z.email().safeParse(e).success) return true;
            ctx.addIssue({
              code: "custom",
              message: `"${e}" is not an email address (a comma-separated list of emails)`,
            });
            return false;
          }),
      ),
  })
  .superRefine((v, ctx) => {
    // The document names the callback built from AUTH_URL as its redirect URI: a server that
    // takes it sends codes there, so it must be https (plain http only on this machine).
    const url = v.SWITCHYARD_OAUTH_CLIENT_METADATA_URL;
    const base = v.AUTH_URL ?? "";
    if (url && url !== "off" && !base.startsWith("https://") && !LOOPBACK_HTTP.test(base))
      ctx.addIssue({
        code: "custom",
        path: ["SWITCHYARD_OAUTH_CLIENT_METADATA_URL"],
        message: `is set, and AUTH_URL is ${base ? "not https" : "unset"}: the client metadata document sends authorization codes to the dashboard's callback, which must be an https AUTH_URL (plain http only on this machine); set AUTH_URL, or set this to "off"`,
      });
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
