/**
 * Request and response shapes of the installation's settings (Settings → Instance, GET and
 * PUT /instance), shared by the tRPC procedures, the REST routes and the OpenAPI document.
 */
import { z } from "zod";
import { auditListInput, auditPage } from "./audit.types";
import { issueResetInput, issueResetResponse } from "./members.types";
import { operation } from "./operation";
import { timestamp } from "./timestamp";

/** The longest lifetime an instance may allow its API tokens, in days (ten years). */
const MAX_TOKEN_LIFETIME_DAYS = 3650;

export const teamCreation = z
  .enum(["instance_admins", "anyone"])
  .describe("who may create teams: instance admins only, or anyone signed in");

export const instanceSettings = z.object({
  teamCreation,
  openSignUp: z
    .boolean()
    .describe(
      "whether people may make an account without an invitation (a sign-up page, and a first single sign-on)",
    ),
  ssoOnly: z
    .boolean()
    .describe(
      "password sign-in refused, single sign-on only; takes effect only while an issuer is configured",
    ),
  maxTokenLifetimeDays: z
    .number()
    .int()
    .nullable()
    .describe("the longest an API token may live, in days; null: no limit"),
  allowAnyConnectorCommand: z
    .boolean()
    .describe(
      "team-authored stdio connectors may run any command; false: only commands from the connectors folder",
    ),
  ssoConfigured: z
    .boolean()
    .describe("whether this server has a single sign-on issuer (SWITCHYARD_OIDC_*); read-only"),
});

export const updateInstanceInput = z
  .object({
    teamCreation: teamCreation.optional(),
    openSignUp: z.boolean().optional(),
    ssoOnly: z.boolean().optional(),
    maxTokenLifetimeDays: z
      .number()
      .int()
      .min(1, "at least 1 day, or no limit")
      .max(MAX_TOKEN_LIFETIME_DAYS)
      .nullable()
      .optional(),
    allowAnyConnectorCommand: z.boolean().optional(),
  })
  .strict();

/** What the signed-in user may do on the installation, for pages to show or hide it. */
export const instanceMe = z.object({
  instanceAdmin: z.boolean(),
  mayCreateTeams: z.boolean(),
  maxTokenLifetimeDays: z
    .number()
    .int()
    .nullable()
    .describe("the longest an API token may live, in days; null: no limit"),
});

export const instanceAdminList = z.array(
  z.object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    source: z
      .enum(["seed", "environment"])
      .describe(
        "seed: the account the seed made; environment: named by SWITCHYARD_INSTANCE_ADMINS",
      ),
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
    emailVerified: z
      .boolean()
      .describe(
        "whether the email is known to be the person's (a link sent there, or an issuer that verified it)",
      ),
    hasPassword: z.boolean(),
    teams: z.number().int().describe("how many teams the person is in"),
    createdAt: timestamp,
  }),
);

/** Settings → Instance: signed-in users only; every operation but `me` needs an instance admin, whatever their role in any team. */
export const instanceOperations = {
  me: operation({
    kind: "query",
    access: "authed",
    output: instanceMe,
    rest: { only: "what the dashboard shows the signed-in user of the installation" },
  }),
  settings: operation({
    kind: "query",
    access: "authed",
    output: instanceSettings,
    rest: {
      method: "GET",
      path: "/instance",
      summary:
        "Instance admins: the installation's settings (who may create teams, sign-up without an invitation, SSO only, the longest token lifetime, any connector command)",
      status: 200,
      description: "The installation's settings",
      errors: { 403: "The token's member is not an instance admin" },
    },
  }),
  update: operation({
    kind: "mutation",
    access: "authed",
    input: updateInstanceInput,
    output: instanceSettings,
    rest: {
      method: "PUT",
      path: "/instance",
      summary:
        "Instance admins, with a token acting as admin or owner: change the installation's settings; fields left out keep their value. SSO only is refused while no issuer is configured, or before you have signed in through it",
      body: updateInstanceInput,
      status: 200,
      description: "The installation's settings as stored",
      errors: {
        400: "Bad input, or SSO only while no issuer is configured or before you signed in through it (USER.INSTANCE.SSO_NOT_CONFIGURED at ssoOnly)",
        403: "The token's member is not an instance admin, or the token acts below admin",
      },
    },
  }),
  audit: operation({
    kind: "query",
    access: "authed",
    input: auditListInput,
    output: auditPage,
    rest: { only: "Settings → Instance's audit entries; over REST, GET /audit is the team's" },
  }),
  admins: operation({
    kind: "query",
    access: "authed",
    output: instanceAdminList,
    rest: { only: "Settings → Instance's list of admins" },
  }),
  people: operation({
    kind: "query",
    access: "authed",
    input: peopleInput,
    output: personList,
    rest: { only: "Settings → Instance's people search" },
  }),
  /** A one-time link for anyone on the installation to set a new password: mailed to them when the server has SMTP, else shown here once. */
  issuePasswordReset: operation({
    kind: "mutation",
    access: "authed",
    input: issueResetInput,
    output: issueResetResponse,
    rest: { only: "a reset link is shown once, in the dashboard, where the server cannot mail it" },
  }),
};
