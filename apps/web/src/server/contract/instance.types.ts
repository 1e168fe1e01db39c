/**
 * Request and response shapes of the installation's settings (Settings → Instance, GET and
 * PUT /instance), shared by the tRPC procedures, the REST routes and the OpenAPI document.
 */
import { z } from "zod";
import { timestamp } from "./timestamp";

/** The longest lifetime an instance may allow its API tokens, in days (ten years). */
const MAX_TOKEN_LIFETIME_DAYS = 3650;

export const teamCreation = z.enum(["instance_admins", "anyone"]).describe("who may create teams: instance admins only, or anyone signed in");

export const instanceSettings = z.object({
  teamCreation,
  openSignUp: z.boolean().describe("whether people may make an account without an invitation (a sign-up page, and a first single sign-on)"),
  ssoOnly: z.boolean().describe("password sign-in refused, single sign-on only; takes effect only while an issuer is configured"),
  maxTokenLifetimeDays: z.number().int().nullable().describe("the longest an API token may live, in days; null: no limit"),
  allowAnyConnectorCommand: z.boolean().describe("team-authored stdio connectors may run any command; false: only commands from the connectors folder"),
  ssoConfigured: z.boolean().describe("whether this server has a single sign-on issuer (SWITCHYARD_OIDC_*); read-only"),
});

export const updateInstanceInput = z
  .object({
    teamCreation: teamCreation.optional(),
    openSignUp: z.boolean().optional(),
    ssoOnly: z.boolean().optional(),
    maxTokenLifetimeDays: z.number().int().min(1, "at least 1 day, or no limit").max(MAX_TOKEN_LIFETIME_DAYS).nullable().optional(),
    allowAnyConnectorCommand: z.boolean().optional(),
  })
  .strict();

/** What the signed-in user may do on the installation, for pages to show or hide it. */
export const instanceMe = z.object({
  instanceAdmin: z.boolean(),
  mayCreateTeams: z.boolean(),
  maxTokenLifetimeDays: z.number().int().nullable().describe("the longest an API token may live, in days; null: no limit"),
});

export const instanceAdminList = z.array(
  z.object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    source: z.enum(["seed", "environment"]).describe("seed: the account the seed made; environment: named by SWITCHYARD_INSTANCE_ADMINS"),
  }),
);

export const peopleInput = z.object({
  query: z.string().max(320).default("").describe("part of a name or email; empty: everyone"),
  limit: z.number().int().min(1).max(200).default(50),
});
export const personList = z.array(
  z.object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    emailVerified: z.boolean().describe("whether the email is known to be the person's (a link sent there, or an issuer that verified it)"),
    hasPassword: z.boolean(),
    teams: z.number().int().describe("how many teams the person is in"),
    createdAt: timestamp,
  }),
);
