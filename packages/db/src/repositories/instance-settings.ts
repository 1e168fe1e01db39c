/**
 * The installation's settings, one row that instance admins change (Settings → Instance):
 * who may create teams, whether people may sign up without an invitation, whether
 * passwords are refused in favour of single sign-on, the longest an API token may live,
 * and whether team-authored stdio connectors may run any command. The web app and the
 * worker read it on paths taken often (team creation, sign-in, token creation, connector
 * saves): one statement on a primary key, straight on the pool, and the defaults when the
 * row is missing. Every change is audited (an entry without a team) in its transaction.
 */
import { rawQuery, type Db } from "../client";
import type { TeamCreation } from "../generated/prisma/client";
import { recordAudit } from "./audit-log";

type InstanceSettings = {
  teamCreation: TeamCreation;
  openSignUp: boolean;
  ssoOnly: boolean;
  maxTokenLifetimeDays: number | null;
  allowAnyConnectorCommand: boolean;
};

const ROW_ID = "instance";

/** What an installation starts with: closed, and passwords allowed. */
const DEFAULTS: InstanceSettings = {
  teamCreation: "instance_admins",
  openSignUp: false,
  ssoOnly: false,
  maxTokenLifetimeDays: null,
  allowAnyConnectorCommand: false,
};

const FIELDS = Object.keys(DEFAULTS) as (keyof InstanceSettings)[];

/** The settings now: one primary-key read (the migration makes the row; defaults if it is gone). */
export const readInstanceSettings = async (db: Db): Promise<InstanceSettings> => {
  const [row] = await rawQuery<InstanceSettings>(
    db,
    `SELECT "teamCreation"::text AS "teamCreation", "openSignUp", "ssoOnly", "maxTokenLifetimeDays", "allowAnyConnectorCommand" FROM "InstanceSettings" WHERE id = $1`,
    [ROW_ID],
  );
  return row ? { ...DEFAULTS, ...row } : { ...DEFAULTS };
};

type Actor = { userId: string; tokenId?: string };

/**
 * Changes what `patch` names, with one `instance.update` audit entry (each field changed,
 * from and to), in one transaction; a patch that changes nothing writes nothing.
 */
export const updateInstanceSettings = (db: Db, actor: Actor, patch: Partial<InstanceSettings>) =>
  db.$transaction(async (tx) => {
    // Locked, so two changes at once audit what each really changed.
    const [locked] = await tx.$queryRaw<InstanceSettings[]>`
      SELECT "teamCreation"::text AS "teamCreation", "openSignUp", "ssoOnly", "maxTokenLifetimeDays", "allowAnyConnectorCommand"
      FROM "InstanceSettings" WHERE id = ${ROW_ID} FOR UPDATE`;
    const before: InstanceSettings = locked ? { ...DEFAULTS, ...locked } : { ...DEFAULTS };
    const after: InstanceSettings = {
      ...before,
      ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)),
    };
    const changed = FIELDS.filter((k) => before[k] !== after[k]);
    if (changed.length === 0) return after;
    await tx.instanceSettings.upsert({
      where: { id: ROW_ID },
      create: { id: ROW_ID, ...after, updatedById: actor.userId },
      update: { ...after, updatedById: actor.userId },
    });
    await recordAudit(tx, {
      teamId: null,
      actorUserId: actor.userId,
      actorToken: actor.tokenId,
      action: "instance.update",
      targetType: "instance",
      targetId: ROW_ID,
      metadata: Object.fromEntries(changed.map((k) => [k, { from: before[k], to: after[k] }])),
    });
    return after;
  });
