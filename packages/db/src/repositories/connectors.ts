/**
 * A team's connectors as stored: the non-secret definition (transport, config, lanes, tool
 * allow-list, whose account a run uses) and, per connector, its credentials: the team's
 * (owner "team") or each member's own (owner = user id), each a sealed Credential plus what
 * anyone may see of it. Listing never reads a credential; an envelope is handed out only
 * to be opened for a call. Validation of the definition, sealing and opening, and audit
 * entries happen in the callers.
 */
import { connectorCredentialHolder, type Envelope } from "@switchyard/core/crypto";
import { AppError } from "@switchyard/core/errors";
import type { Prisma, PrismaClient } from "../generated/prisma/client";
import { rawQuery, type Db } from "../client";
import type { PrismaClientOrTransaction } from "../transaction";
import { envelopeOf, sealedColumns } from "./sealed-columns";
import type { SealedValue } from "./variables";

/** Whose account a credential is: the team's, or one member's (their user id). */
export const TEAM_OWNER = "team";
/** The holder a connector's OAuth client secret is sealed for (no user id looks like it). */
export const CLIENT_SECRET_OWNER = "oauth-client";

/** Why a credential needs its owner to connect again. */
type ReconnectReason = "refresh_refused" | "destination_changed";

export type ConnectorFields = {
  name: string;
  description: string;
  transport: "stdio" | "http";
  /** Non-secret: command, args, env, credential_env, url, auth, oauth_client_id. */
  config: Prisma.InputJsonValue;
  lanes: string[];
  credentialMode: "team" | "member";
  initialTools: string[];
  toolAllow: Prisma.InputJsonValue;
  enabled: boolean;
  curatedKey: string | null;
};

const credentialSummary = {
  owner: true,
  kind: true,
  fingerprint: true,
  status: true,
  reconnectReason: true,
  requiredScope: true,
  setById: true,
  setAt: true,
  expiresAt: true,
  lastUsedAt: true,
} as const;

const listed = {
  id: true,
  slug: true,
  name: true,
  description: true,
  curatedKey: true,
  transport: true,
  config: true,
  lanes: true,
  credentialMode: true,
  initialTools: true,
  toolAllow: true,
  enabled: true,
  clientSecretId: true,
  createdById: true,
  createdAt: true,
  updatedAt: true,
  credentials: { select: credentialSummary, orderBy: { setAt: "asc" } },
} as const;

export type ConnectorRow = Prisma.ConnectorGetPayload<{ select: typeof listed }>;
export type ConnectorCredentialSummary = ConnectorRow["credentials"][number];

/** The team's connectors, by slug. */
export const listConnectors = (
  db: PrismaClientOrTransaction,
  teamId: string,
): Promise<ConnectorRow[]> =>
  db.connector.findMany({ where: { teamId }, select: listed, orderBy: { slug: "asc" } });

/** The team's connector with that slug; undefined when there is none. */
export const findConnector = async (
  db: PrismaClientOrTransaction,
  teamId: string,
  slug: string,
): Promise<ConnectorRow | undefined> =>
  (await db.connector.findUnique({ where: { teamId_slug: { teamId, slug } }, select: listed })) ??
  undefined;

const notFound = (slug: string) =>
  new AppError("NOT_FOUND", `the team has no connector "${slug}"`, { location: { path: "id" } });

/** Creates a connector; USER.CONNECTOR.LIMIT past `max` per team, CONFLICT when the id is taken. Run it in a transaction. */
export const createConnector = async (
  tx: PrismaClientOrTransaction,
  input: ConnectorFields & { teamId: string; slug: string; createdById: string; max: number },
): Promise<ConnectorRow> => {
  const { teamId, slug, max, ...fields } = input;
  if ((await tx.connector.count({ where: { teamId } })) >= max)
    throw new AppError(
      "USER.CONNECTOR.LIMIT",
      `a team has at most ${max} connectors: remove one first`,
    );
  if (
    await tx.connector.findUnique({
      where: { teamId_slug: { teamId, slug } },
      select: { id: true },
    })
  )
    throw new AppError("CONFLICT", `the team already has a connector "${slug}"`, {
      location: { path: "id" },
    });
  return tx.connector.create({ data: { teamId, slug, ...fields }, select: listed });
};

/** Changes the given fields of the team's connector with that slug. */
export const updateConnector = async (
  tx: PrismaClientOrTransaction,
  input: Partial<ConnectorFields> & { teamId: string; slug: string },
): Promise<ConnectorRow> => {
  const { teamId, slug, ...fields } = input;
  const existing = await tx.connector.findUnique({
    where: { teamId_slug: { teamId, slug } },
    select: { id: true },
  });
  if (!existing) throw notFound(slug);
  return tx.connector.update({ where: { id: existing.id }, data: fields, select: listed });
};

/** Removes a connector with every credential of it. Run it in a transaction. */
export const removeConnector = async (
  tx: PrismaClientOrTransaction,
  input: { teamId: string; slug: string },
) => {
  const existing = await tx.connector.findUnique({
    where: { teamId_slug: { teamId: input.teamId, slug: input.slug } },
    select: { id: true, clientSecretId: true, credentials: { select: { credentialId: true } } },
  });
  if (!existing) throw notFound(input.slug);
  await tx.connector.delete({ where: { id: existing.id } });
  const ids = existing.credentials.map((c) => c.credentialId);
  if (existing.clientSecretId) ids.push(existing.clientSecretId);
  if (ids.length > 0)
    await tx.credential.deleteMany({ where: { id: { in: ids }, teamId: input.teamId } });
};

type StoreConnectorCredentialInput = {
  teamId: string;
  slug: string;
  owner: string;
  kind: "api_key" | "oauth";
  sealed: SealedValue;
  fingerprint: string;
  setById: string;
  expiresAt?: Date | null;
  /** Non-secret facts kept with the credential: an OAuth issuer, scopes, client id. */
  metadata?: Prisma.InputJsonValue;
};

/** Stores (or replaces) an owner's credential of a connector, dropping the one it replaces. Run it in a transaction. */
export const storeConnectorCredential = async (
  tx: PrismaClientOrTransaction,
  input: StoreConnectorCredentialInput,
): Promise<ConnectorCredentialSummary> => {
  const connector = await tx.connector.findUnique({
    where: { teamId_slug: { teamId: input.teamId, slug: input.slug } },
    select: { id: true },
  });
  if (!connector) throw notFound(input.slug);
  const existing = await tx.connectorCredential.findUnique({
    where: { connectorId_owner: { connectorId: connector.id, owner: input.owner } },
  });
  const { credentialId, envelope } = input.sealed;
  await tx.credential.create({
    data: {
      id: credentialId,
      teamId: input.teamId,
      name: `${connectorCredentialHolder(input.slug, input.owner)}:${credentialId}`,
      kind: input.kind,
      metadata: input.metadata ?? {},
      expiresAt: input.expiresAt ?? null,
      ...sealedColumns(envelope),
    },
  });
  if (existing) await tx.connectorCredential.delete({ where: { id: existing.id } });
  const row = await tx.connectorCredential.create({
    data: {
      teamId: input.teamId,
      connectorId: connector.id,
      owner: input.owner,
      credentialId,
      kind: input.kind,
      fingerprint: input.fingerprint,
      setById: input.setById,
      expiresAt: input.expiresAt ?? null,
    },
    select: credentialSummary,
  });
  if (existing)
    await tx.credential.deleteMany({ where: { id: existing.credentialId, teamId: input.teamId } });
  return row;
};

/**
 * Sets (`sealed`) or clears (null) the client secret of a connector's pre-registered OAuth
 * client, dropping the one it replaces; whether one was set before. Run it in a transaction.
 */
export const setConnectorClientSecret = async (
  tx: PrismaClientOrTransaction,
  input: {
    teamId: string;
    slug: string;
    sealed: SealedValue | null;
    /** Non-secret facts kept with it: the authorization server it may be sent to. */
    metadata?: Prisma.InputJsonValue;
  },
): Promise<{ replaced: boolean }> => {
  const connector = await tx.connector.findUnique({
    where: { teamId_slug: { teamId: input.teamId, slug: input.slug } },
    select: { id: true, clientSecretId: true },
  });
  if (!connector) throw notFound(input.slug);
  if (input.sealed) {
    const { credentialId, envelope } = input.sealed;
    await tx.credential.create({
      data: {
        id: credentialId,
        teamId: input.teamId,
        name: `${connectorCredentialHolder(input.slug, CLIENT_SECRET_OWNER)}:${credentialId}`,
        kind: "secret",
        metadata: input.metadata ?? {},
        ...sealedColumns(envelope),
      },
    });
  }
  await tx.connector.update({
    where: { id: connector.id },
    data: { clientSecretId: input.sealed?.credentialId ?? null },
  });
  if (connector.clientSecretId)
    await tx.credential.deleteMany({
      where: { id: connector.clientSecretId, teamId: input.teamId },
    });
  return { replaced: connector.clientSecretId !== null };
};

/** The sealed client secret of a connector's OAuth client, to open for a token request; undefined when none is set. */
export const connectorClientSecret = async (
  db: PrismaClientOrTransaction,
  input: { teamId: string; slug: string },
): Promise<(SealedValue & { metadata: Prisma.JsonValue }) | undefined> => {
  const row = await db.connector.findUnique({
    where: { teamId_slug: { teamId: input.teamId, slug: input.slug } },
    select: { clientSecret: true },
  });
  const secret = row?.clientSecret;
  if (!secret) return undefined;
  if (secret.teamId !== input.teamId)
    throw new AppError(
      "SYSTEM.CREDENTIAL_UNREADABLE",
      `the client secret of connector "${input.slug}" is held by another team`,
    );
  return { credentialId: secret.id, envelope: envelopeOf(secret), metadata: secret.metadata };
};

/** Revokes an owner's credential of a connector; NOT_FOUND when there is none. Run it in a transaction. */
export const revokeConnectorCredential = async (
  tx: PrismaClientOrTransaction,
  input: { teamId: string; slug: string; owner: string },
) => {
  const connector = await tx.connector.findUnique({
    where: { teamId_slug: { teamId: input.teamId, slug: input.slug } },
    select: { id: true },
  });
  const existing =
    connector &&
    (await tx.connectorCredential.findUnique({
      where: { connectorId_owner: { connectorId: connector.id, owner: input.owner } },
    }));
  if (!existing)
    throw new AppError(
      "NOT_FOUND",
      `connector "${input.slug}" has no credential of ${input.owner === TEAM_OWNER ? "the team" : "this member"}`,
    );
  await tx.connectorCredential.delete({ where: { id: existing.id } });
  await tx.credential.deleteMany({ where: { id: existing.credentialId, teamId: input.teamId } });
};

export type CredentialForUse = {
  id: string;
  kind: string;
  status: string;
  reconnectReason: string | null;
  expiresAt: Date | null;
  metadata: Prisma.JsonValue;
  sealed: SealedValue;
};

/** An owner's credential of a connector with its envelope to open (the worker only); undefined when none is set. */
export const connectorCredentialForUse = async (
  db: PrismaClientOrTransaction,
  input: { teamId: string; slug: string; owner: string },
): Promise<CredentialForUse | undefined> => {
  const connector = await db.connector.findUnique({
    where: { teamId_slug: { teamId: input.teamId, slug: input.slug } },
    select: { id: true },
  });
  if (!connector) return undefined;
  const row = await db.connectorCredential.findUnique({
    where: { connectorId_owner: { connectorId: connector.id, owner: input.owner } },
    include: { credential: true },
  });
  if (!row) return undefined;
  if (row.credential.teamId !== input.teamId || row.teamId !== input.teamId)
    throw new AppError(
      "SYSTEM.CREDENTIAL_UNREADABLE",
      `a credential of connector "${input.slug}" is held by another team`,
    );
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    reconnectReason: row.reconnectReason,
    expiresAt: row.expiresAt,
    metadata: row.credential.metadata,
    sealed: { credentialId: row.credentialId, envelope: envelopeOf(row.credential) },
  };
};

/** A credential was used for a call. */
export const markConnectorCredentialUsed = (
  db: PrismaClientOrTransaction,
  id: string,
  at = new Date(),
) => db.connectorCredential.updateMany({ where: { id }, data: { lastUsedAt: at } });

/** A refresh that failed (or a grant found to be for another server): the credential stays, and says it needs its owner to reconnect. */
export const markConnectorCredentialNeedsReconnect = (
  db: PrismaClientOrTransaction,
  id: string,
  reason: ReconnectReason = "refresh_refused",
  /** Only while the row still holds this team's sealed credential: not one connected since. */
  holding?: { teamId: string; credentialId: string },
) =>
  db.connectorCredential.updateMany({
    where: { id, ...(holding ?? {}) },
    data: { status: "needs_reconnect", reconnectReason: reason },
  });

/**
 * A call was refused for want of the scope `requiredScope` (403 insufficient_scope): the
 * credential says it needs more access until its owner connects it again. Only while the row
 * still holds this sealed credential; whether it was marked now (false: already marked, or
 * connected again since).
 */
export const markConnectorCredentialNeedsMoreAccess = async (
  db: PrismaClientOrTransaction,
  input: { teamId: string; id: string; credentialId: string; requiredScope: string },
): Promise<boolean> => {
  const { count } = await db.connectorCredential.updateMany({
    where: {
      id: input.id,
      teamId: input.teamId,
      credentialId: input.credentialId,
      status: "active",
    },
    data: { status: "needs_more_access", requiredScope: input.requiredScope },
  });
  if (count === 0)
    await db.connectorCredential.updateMany({
      where: {
        id: input.id,
        teamId: input.teamId,
        credentialId: input.credentialId,
        status: "needs_more_access",
      },
      data: { requiredScope: input.requiredScope },
    });
  return count > 0;
};

/**
 * What an owner's OAuth credential of a connector was authorized for (scope asked for and
 * granted, from its non-secret metadata) and the scope its server asked for since, when it
 * needs more access; undefined when none is set.
 */
export const connectorCredentialScopes = async (
  db: PrismaClientOrTransaction,
  input: { teamId: string; slug: string; owner: string },
): Promise<{ requested?: string; granted?: string; requiredScope: string | null } | undefined> => {
  const row = await db.connectorCredential.findFirst({
    where: {
      teamId: input.teamId,
      owner: input.owner,
      connector: { teamId: input.teamId, slug: input.slug },
      credential: { teamId: input.teamId },
    },
    select: { status: true, requiredScope: true, credential: { select: { metadata: true } } },
  });
  if (!row) return undefined;
  const meta = (row.credential.metadata ?? {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === "string" ? v : undefined);
  return {
    ...(text(meta.requestedScope) ? { requested: text(meta.requestedScope) } : {}),
    ...(text(meta.scope) ? { granted: text(meta.scope) } : {}),
    requiredScope: row.status === "needs_more_access" ? row.requiredScope : null,
  };
};

/**
 * Every credential of a connector (the team's and each member's) needs its owner to connect
 * again: the connector's destination changed. Run it in the transaction of the change;
 * returns how many were marked.
 */
export const markConnectorCredentialsToReconnect = async (
  tx: PrismaClientOrTransaction,
  input: { teamId: string; slug: string; reason: ReconnectReason },
) => {
  const connector = await tx.connector.findUnique({
    where: { teamId_slug: { teamId: input.teamId, slug: input.slug } },
    select: { id: true },
  });
  if (!connector) throw notFound(input.slug);
  const { count } = await tx.connectorCredential.updateMany({
    where: { teamId: input.teamId, connectorId: connector.id },
    data: { status: "needs_reconnect", reconnectReason: input.reason },
  });
  return count;
};

/**
 * New sealed material for the same credential row (refreshed OAuth tokens), bound to the
 * same holder. Its status stays as it is: a credential marked needs_reconnect (its
 * connector moved, say) is not mended by a refresh that a step still running made.
 */
export const resealConnectorCredential = async (
  tx: PrismaClientOrTransaction,
  input: { teamId: string; id: string; sealed: SealedValue; expiresAt: Date | null },
) => {
  const row = await tx.connectorCredential.findFirst({
    where: { id: input.id, teamId: input.teamId },
    select: { credentialId: true },
  });
  if (!row || row.credentialId !== input.sealed.credentialId)
    throw new AppError(
      "SYSTEM.CREDENTIAL_UNREADABLE",
      "a refreshed credential must keep its credential id",
    );
  await tx.credential.update({
    where: { id: row.credentialId },
    data: {
      ...sealedColumns(input.sealed.envelope),
      expiresAt: input.expiresAt,
      rotatedAt: new Date(),
    },
  });
  await tx.connectorCredential.update({
    where: { id: input.id },
    data: { expiresAt: input.expiresAt },
  });
};

/**
 * Runs `work` in a transaction holding the credential row (SELECT ... FOR UPDATE), so that two
 * workers never refresh one grant at once: the second waits, then reads what the first
 * stored. `work` gets the envelope as stored once the lock is held, or undefined when the
 * row no longer holds that credential (revoked, or connected again meanwhile); writes that
 * belong to the lock (resealConnectorCredential) go through `tx`.
 */
export const withConnectorCredentialLocked = <T>(
  db: PrismaClient,
  input: { teamId: string; id: string; credentialId: string },
  work: (tx: Prisma.TransactionClient, envelope: Envelope | undefined) => Promise<T>,
  options: { timeoutMs?: number } = {},
): Promise<T> =>
  db.$transaction(
    async (tx) => {
      const [row] = await tx.$queryRaw<{ credentialId: string }[]>`
        SELECT "credentialId" FROM "ConnectorCredential"
        WHERE "id" = ${input.id} AND "teamId" = ${input.teamId}
        FOR UPDATE`;
      const credential =
        row?.credentialId === input.credentialId
          ? await tx.credential.findFirst({
              where: { id: input.credentialId, teamId: input.teamId },
            })
          : null;
      return work(tx, credential ? envelopeOf(credential) : undefined);
    },
    // The lock is held across one request to the authorization server, and waited for as long.
    { timeout: options.timeoutMs ?? 60_000, maxWait: 10_000 },
  );

/** The team's connectors among `slugs` as a run reaches them (enabled or not: the caller decides). */
export const connectorsBySlug = (
  db: PrismaClientOrTransaction,
  teamId: string,
  slugs: readonly string[],
) => db.connector.findMany({ where: { teamId, slug: { in: [...slugs] } }, select: listed });

/** What a connector call reads of its connector as it is now: its definition's columns. */
export type ConnectorNow = Pick<
  ConnectorRow,
  | "slug"
  | "name"
  | "description"
  | "transport"
  | "config"
  | "lanes"
  | "credentialMode"
  | "initialTools"
  | "toolAllow"
  | "enabled"
>;

/**
 * One connector's definition as stored now, read before every call a running step makes
 * (whether it is on, open to the lane, and which tools it allows): one plain statement on
 * the pool. Undefined when the team has no such connector.
 */
export const connectorNow = async (
  db: Db,
  teamId: string,
  slug: string,
): Promise<ConnectorNow | undefined> =>
  (
    await rawQuery<ConnectorNow>(
      db,
      `SELECT slug, name, description, transport::text AS transport, config, lanes,
         "credentialMode"::text AS "credentialMode", "initialTools", "toolAllow", enabled
       FROM "Connector" WHERE "teamId" = $1 AND slug = $2`,
      [teamId, slug],
    )
  )[0];

/**
 * A stored connector as the definition a person writes (core's parseConnectorDefinition
 * reads it): the columns, and the transport's fields kept in `config`.
 */
export const connectorDefinitionOf = (row: ConnectorNow) => ({
  ...(row.config as Record<string, unknown>),
  id: row.slug,
  name: row.name,
  description: row.description,
  transport: row.transport,
  lanes: row.lanes,
  credential_mode: row.credentialMode,
  initial_tools: row.initialTools,
  enabled: row.enabled,
  tool_allow: row.toolAllow,
});
