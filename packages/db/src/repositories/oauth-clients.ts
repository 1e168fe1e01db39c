/**
 * The OAuth clients a team registered dynamically, one per authorization server and redirect
 * URI, so that connecting again (or another connector behind the same server) presents the
 * same client instead of registering one more. A client's secret is a sealed Credential;
 * sealing and opening happen in the callers.
 */
import type { Db } from "../client";
import type { PrismaClientOrTransaction } from "../transaction";
import { envelopeOf, sealedColumns } from "./sealed-columns";
import type { SealedValue } from "./variables";

type ClientKey = { teamId: string; issuer: string; redirectUri: string };

type StoredOAuthClient = {
  clientId: string;
  tokenEndpointAuthMethod: string | null;
  secret: SealedValue | undefined;
  secretExpiresAt: Date | null;
  presentedAt: Date | null;
  /** The scope it was registered with; null: none named. */
  scope: string | null;
};

/** The team's client at that server for that redirect URI; undefined when none is kept. */
export const findOAuthClient = async (
  db: PrismaClientOrTransaction,
  key: ClientKey,
): Promise<StoredOAuthClient | undefined> => {
  const row = await db.oAuthClient.findUnique({
    where: { teamId_issuer_redirectUri: key },
    include: { secret: true },
  });
  if (!row) return undefined;
  const secret = row.secret?.teamId === key.teamId ? row.secret : null;
  return {
    clientId: row.clientId,
    tokenEndpointAuthMethod: row.tokenEndpointAuthMethod,
    secret: secret ? { credentialId: secret.id, envelope: envelopeOf(secret) } : undefined,
    secretExpiresAt: row.secretExpiresAt,
    presentedAt: row.presentedAt,
    scope: row.scope,
  };
};

/** Drops the team's client at that server for that redirect URI (with its secret), if it is `clientId`. */
export const forgetOAuthClient = async (
  tx: PrismaClientOrTransaction,
  key: ClientKey & { clientId: string },
) => {
  const { clientId, ...unique } = key;
  const row = await tx.oAuthClient.findUnique({
    where: { teamId_issuer_redirectUri: unique },
    select: { id: true, clientId: true, secretId: true },
  });
  if (!row || row.clientId !== clientId) return;
  await tx.oAuthClient.delete({ where: { id: row.id } });
  if (row.secretId)
    await tx.credential.deleteMany({ where: { id: row.secretId, teamId: key.teamId } });
};

type NewClient = ClientKey & {
  clientId: string;
  tokenEndpointAuthMethod: string | null;
  secret: SealedValue | null;
  secretExpiresAt: Date | null;
  scope?: string | null;
};

/**
 * Keeps a newly registered client, replacing the one kept before, in a transaction of its
 * own. Two first connections to one server that meet both register; the one whose keeping
 * comes second finds the other's row (a unique violation) and keeps nothing: its client
 * serves its own connection only. Whether it was kept.
 */
export const keepOAuthClient = (db: Db, input: NewClient): Promise<boolean> =>
  db
    .$transaction((tx) => keepIn(tx, input))
    .then(
      () => true,
      (error: unknown) => {
        if ((error as { code?: unknown } | null)?.code === "P2002") return false;
        throw error;
      },
    );

const keepIn = async (tx: PrismaClientOrTransaction, input: NewClient) => {
  const { teamId, issuer, redirectUri } = input;
  const before = await tx.oAuthClient.findUnique({
    where: { teamId_issuer_redirectUri: { teamId, issuer, redirectUri } },
    select: { clientId: true },
  });
  if (before)
    await forgetOAuthClient(tx, { teamId, issuer, redirectUri, clientId: before.clientId });
  if (input.secret)
    await tx.credential.create({
      data: {
        id: input.secret.credentialId,
        teamId,
        name: `oauth-client:${input.secret.credentialId}`,
        kind: "secret",
        ...sealedColumns(input.secret.envelope),
      },
    });
  await tx.oAuthClient.create({
    data: {
      teamId,
      issuer,
      redirectUri,
      clientId: input.clientId,
      tokenEndpointAuthMethod: input.tokenEndpointAuthMethod,
      secretId: input.secret?.credentialId ?? null,
      secretExpiresAt: input.secretExpiresAt,
      scope: input.scope ?? null,
    },
  });
};

/**
 * A begun authorization presents the kept client: noted unless an earlier one is still
 * unanswered, so the note says since when no authorization with it came back.
 */
export const markOAuthClientPresented = (
  db: PrismaClientOrTransaction,
  key: ClientKey & { clientId: string },
) =>
  db.oAuthClient.updateMany({
    where: { ...key, presentedAt: null },
    data: { presentedAt: new Date() },
  });

/** An authorization with the kept client completed: the server knows it. */
export const confirmOAuthClient = (
  db: PrismaClientOrTransaction,
  key: ClientKey & { clientId: string },
) => db.oAuthClient.updateMany({ where: key, data: { presentedAt: null } });
