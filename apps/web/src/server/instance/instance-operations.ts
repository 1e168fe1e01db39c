/**
 * The installation's settings for its admins, over the dashboard's procedures and the REST
 * API alike: reading and changing them (each change audited, without a team), their audit
 * entries, and what a signed-in user may do here (pages show or hide by it; every operation
 * checks again). "SSO only" is refused while no issuer is configured, and until the admin
 * switching it on has signed in through the issuer, so nobody is locked out by it.
 */
import type { z } from "zod";
import { AppError } from "@switchyard/core/errors";
import {
  hasIdentityAt,
  listAuditLog,
  readInstanceSettings,
  updateInstanceSettings,
  type Db,
} from "@switchyard/db";
import { oidcConfig } from "../auth/oidc-config";
import type { auditListInput } from "../contract/audit.types";
import type { updateInstanceInput } from "../contract/instance.types";
import { instanceAdminOf, requireInstanceAdmin } from "./instance-admin";

type InstanceActor = { userId: string; tokenId?: string };

/** Whether the user may create teams now: an instance admin always, anyone when the settings say so. */
export const mayCreateTeams = async (db: Db, userId: string) =>
  (await readInstanceSettings(db)).teamCreation === "anyone" || (await instanceAdminOf(db, userId));

export const instanceMe = async (db: Db, userId: string) => {
  const [settings, instanceAdmin] = await Promise.all([
    readInstanceSettings(db),
    instanceAdminOf(db, userId),
  ]);
  return {
    instanceAdmin,
    mayCreateTeams: instanceAdmin || settings.teamCreation === "anyone",
    maxTokenLifetimeDays: settings.maxTokenLifetimeDays,
  };
};

const withSso = <T>(settings: T) => ({ ...settings, ssoConfigured: oidcConfig() !== undefined });

export const instanceSettings = async (db: Db, actor: InstanceActor) => {
  await requireInstanceAdmin(db, actor.userId);
  return withSso(await readInstanceSettings(db));
};

const ssoRefusal = (message: string) =>
  new AppError("USER.INSTANCE.SSO_NOT_CONFIGURED", message, { location: { path: "ssoOnly" } });

/** Before "SSO only" goes on: an issuer to sign in through, and the admin able to use it. */
const checkSsoOnly = async (db: Db, userId: string) => {
  const oidc = oidcConfig();
  if (!oidc)
    throw ssoRefusal(
      "single sign-on is not configured on this server (SWITCHYARD_OIDC_ISSUER, _CLIENT_ID, _CLIENT_SECRET): with SSO only, nobody could sign in",
    );
  if (!(await hasIdentityAt(db, userId, oidc.issuer))) {
    throw ssoRefusal(
      `sign in through ${oidc.name} once yourself before turning SSO only on, so you are not locked out`,
    );
  }
};

/** Changes the fields given, with one audit entry of what changed. */
export const updateInstance = async (
  db: Db,
  actor: InstanceActor,
  input: z.infer<typeof updateInstanceInput>,
) => {
  await requireInstanceAdmin(db, actor.userId);
  if (input.ssoOnly === true) await checkSsoOnly(db, actor.userId);
  return withSso(await updateInstanceSettings(db, actor, input));
};

/** The installation's own audit entries (settings, reset links its admins issue, accounts claimed), newest first. */
export const instanceAuditLog = async (
  db: Db,
  actor: InstanceActor,
  input: z.output<typeof auditListInput>,
) => {
  await requireInstanceAdmin(db, actor.userId);
  return listAuditLog(db, {
    teamId: null,
    limit: input.limit,
    ...(input.cursor ? { cursor: input.cursor } : {}),
    ...(input.action ? { actionPrefix: input.action } : {}),
  });
};
