/**
 * The team's connectors, for the dashboard's procedures and the REST API alike. Every member
 * lists them (the curated catalog merged with the team's own, each with its credentials'
 * status, never a value); admins create, change, set up and remove connectors and set the
 * team's credential; every member sets and revokes their own account's credential for a
 * connector used with each member's account. A definition is checked whole by core (strict
 * schema, no secret-looking values, lanes the team has); a credential is sealed here, bound
 * to the team, the connector and its owner. Each change commits with its audit entry.
 */
import { createHash } from "node:crypto";
import type { z } from "zod";
import {
  connectorCommandRefusal,
  curatedConnector,
  curatedDefinition,
  destinationChanges,
  MAX_CONNECTORS_PER_TEAM,
  needsCredential,
  mergeCuratedConnectors,
  parseConnectorDefinition,
  type ConnectorDefinition,
} from "@switchyard/core/connectors";
import { newCredentialId, sealConnectorCredential, type Keyring } from "@switchyard/core/crypto";
import { checkEgressUrlAt, type EgressAllowList, type FetchLike } from "@switchyard/core/egress";
import { AppError } from "@switchyard/core/errors";
import { ALL_LANES } from "@switchyard/core/policy";
import {
  connectorDefinitionOf,
  createConnector,
  findConnector,
  laneRules,
  listConnectors,
  readInstanceSettings,
  markConnectorCredentialsToReconnect,
  recordAudit,
  removeConnector,
  revokeConnectorCredential,
  setConnectorClientSecret,
  storeConnectorCredential,
  TEAM_OWNER,
  updateConnector,
  type ConnectorCredentialSummary,
  type ConnectorFields,
  type ConnectorRow,
  type Db,
  type PrismaClientOrTransaction,
  type Role,
} from "@switchyard/db";
import type {
  connectorListing,
  credentialSummary,
  setCredentialBody,
} from "../contract/connectors.types";
import type { WebEgress } from "../egress";
import {
  checkClientCredentialValue,
  clientMoved,
  dropClientCredentials,
  usesClientCredentials,
} from "./connector-client-credentials";
import { requireRole } from "../trpc/init";

export type ConnectorActor = { teamId: string; userId: string; role: Role };
type Listing = z.infer<typeof connectorListing>;
type CredentialSummary = z.infer<typeof credentialSummary>;

const shownCredential = (c: ConnectorCredentialSummary | undefined): CredentialSummary | null =>
  c
    ? {
        kind: c.kind,
        fingerprint: c.fingerprint,
        status:
          c.status === "needs_reconnect" || c.status === "needs_more_access" ? c.status : "active",
        reconnectReason:
          c.status !== "needs_reconnect"
            ? null
            : c.reconnectReason === "destination_changed"
              ? "destination_changed"
              : "refresh_refused",
        requiredScope: c.status === "needs_more_access" ? c.requiredScope : null,
        setBy: c.setById,
        setAt: c.setAt,
        expiresAt: c.expiresAt,
        lastUsedAt: c.lastUsedAt,
      }
    : null;

/** The columns of a checked definition. */
const fieldsOf = (def: ConnectorDefinition, curatedKey: string | null): ConnectorFields => {
  const {
    id: _id,
    name,
    description,
    transport,
    lanes,
    credential_mode,
    initial_tools,
    tool_allow,
    enabled,
    ...config
  } = def;
  return {
    name,
    description,
    transport,
    config,
    lanes,
    credentialMode: credential_mode,
    initialTools: initial_tools,
    toolAllow: tool_allow,
    enabled,
    curatedKey,
  };
};

/** Lanes a connector lists must be the team's (or `*`, every lane). */
const checkLanes = async (db: Db, teamId: string, def: ConnectorDefinition) => {
  const known = await laneRules(db, teamId);
  const unknown = def.lanes.findIndex((l) => l !== ALL_LANES && !known.has(l));
  if (unknown >= 0)
    throw new AppError(
      "USER.CONNECTOR.INVALID",
      `lanes[${unknown}]: lane "${def.lanes[unknown]}" does not exist in this team`,
      {
        location: { path: `lanes[${unknown}]` },
      },
    );
};

const definitionOfRow = (row: ConnectorRow) => parseConnectorDefinition(connectorDefinitionOf(row));
/** A stored definition, or undefined where it no longer reads. */
const storedDefinition = (row: ConnectorRow) => {
  try {
    return definitionOfRow(row);
  } catch {
    return undefined;
  }
};

export const listTeamConnectors = async (db: Db, actor: ConnectorActor): Promise<Listing[]> => {
  const rows = new Map((await listConnectors(db, actor.teamId)).map((r) => [r.slug, r]));
  const listed = mergeCuratedConnectors([...rows.values()].map(definitionOfRow));
  return listed.map(({ definition, source, curated }) => {
    const row = source === "team" ? rows.get(definition.id) : undefined;
    const credentials = row?.credentials ?? [];
    return {
      id: definition.id,
      source,
      definition: definition,
      docsUrl: curated?.docsUrl ?? null,
      curatedAuth: [...(curated?.auth ?? [])],
      needsCredential: needsCredential(definition),
      teamCredential: shownCredential(credentials.find((c) => c.owner === TEAM_OWNER)),
      myCredential: shownCredential(credentials.find((c) => c.owner === actor.userId)),
      memberCredentials: credentials.filter((c) => c.owner !== TEAM_OWNER).length,
      memberCredentialsToReconnect: credentials.filter(
        (c) => c.owner !== TEAM_OWNER && c.status === "needs_reconnect",
      ).length,
      clientSecret: row?.clientSecretId ? ("set" as const) : ("not_set" as const),
      updatedAt: row?.updatedAt ?? null,
    };
  });
};

const listingOf = async (db: Db, actor: ConnectorActor, id: string) => {
  const found = (await listTeamConnectors(db, actor)).find((c) => c.id === id);
  if (!found) throw new AppError("NOT_FOUND", `the team has no connector "${id}"`);
  return found;
};

const audit = (
  tx: PrismaClientOrTransaction,
  actor: ConnectorActor,
  action: string,
  id: string,
  metadata: Record<string, string | number | boolean | null> = {},
) =>
  recordAudit(tx, {
    teamId: actor.teamId,
    actorUserId: actor.userId,
    action,
    targetType: "connector",
    targetId: id,
    metadata,
  });

/**
 * A change of where the connector's credential goes (core's destinationChanges: URL,
 * headers, command, arguments, environment, transport) marks every credential of it (the
 * team's and each member's) needs_reconnect, in the transaction of the change: the next run
 * must not hand a credential given for one destination to another. What the audit entry
 * adds: the fields and how many credentials were marked. A machine-to-machine connector's
 * secret or key is deleted instead, also when its sign-in or client changes
 * (connector-client-credentials.ts).
 */
const reconnectIfMoved = async (
  tx: PrismaClientOrTransaction,
  actor: ConnectorActor,
  existing: ConnectorRow,
  after: ConnectorDefinition,
): Promise<Record<string, string | number>> => {
  const before = storedDefinition(existing);
  // A stored definition that no longer reads: nothing says where its credentials went.
  const changed: string[] = before ? destinationChanges(before, after) : ["definition"];
  const oauthClientOf = (def: ConnectorDefinition | undefined) =>
    def?.transport === "http" ? def.oauth_client_id : undefined;
  // The admin-set client secret is for one client at one server: it never follows the
  // connector to another destination or client id (nobody can read it back to check).
  const secretGoes =
    existing.clientSecretId !== null &&
    (changed.length > 0 || oauthClientOf(before) !== oauthClientOf(after));
  if (secretGoes)
    await setConnectorClientSecret(tx, { teamId: actor.teamId, slug: after.id, sealed: null });
  const cleared: Record<string, number> = secretGoes ? { clientSecretCleared: 1 } : {};
  if (changed.length === 0 && !clientMoved(before, after)) return cleared;
  if (usesClientCredentials(before) || usesClientCredentials(after))
    return {
      ...(changed.length > 0 ? { destinationChanged: changed.join(",") } : {}),
      ...(await dropClientCredentials(tx, actor.teamId, after.id)),
      ...cleared,
    };
  if (changed.length === 0) return cleared;
  const marked = await markConnectorCredentialsToReconnect(tx, {
    teamId: actor.teamId,
    slug: after.id,
    reason: "destination_changed",
  });
  return { destinationChanged: changed.join(","), credentialsToReconnect: marked, ...cleared };
};

/**
 * What the installation decides for a connector being saved or called by hand: where an
 * http connector may point (the operator's egress rule) and whether a stdio connector may
 * run any command (see connectorCommandRefusal).
 */
export type ConnectorRules = { egress: EgressAllowList; allowAnyCommand: boolean };

/** The rules now: the web app's egress rule, and whether an instance admin lets stdio connectors run any command. */
export const connectorRulesOf = async (db: Db, egress: WebEgress): Promise<ConnectorRules> => ({
  egress: egress.allow,
  allowAnyCommand: (await readInstanceSettings(db)).allowAnyConnectorCommand,
});

/**
 * Where an http connector points must pass the egress rule when it is saved (a literal
 * internal address, plain http to a host the operator does not list); the worker's fetch
 * judges again at every request, at the address it connects to.
 */
const checkDestination = (def: ConnectorDefinition, rules: ConnectorRules) => {
  if (def.transport !== "http") return;
  checkEgressUrlAt(rules.egress, def.url);
};

/**
 * Core's command policy on what a stdio connector would run, when that is new (`before`
 * undefined) or changed: a connector saved while any command was allowed can still be
 * renamed or switched off once it no longer is (the worker refuses to start it).
 */
export const checkCommand = (
  def: ConnectorDefinition,
  rules: ConnectorRules,
  before?: ConnectorDefinition,
) => {
  if (def.transport !== "stdio") return;
  const launch = {
    command: def.command,
    args: def.args,
    env: def.env,
    credentialEnv: def.credential_env,
  };
  if (before?.transport === "stdio") {
    const was = {
      command: before.command,
      args: before.args,
      env: before.env,
      credentialEnv: before.credential_env,
    };
    if (JSON.stringify(was) === JSON.stringify(launch)) return;
  }
  const refused = connectorCommandRefusal(launch, { allowAnyCommand: rules.allowAnyCommand });
  if (refused) throw refused;
};

/** Admins: a team-authored connector. A curated id is set up with `setUpCurated` instead. */
export const createTeamConnector = async (
  db: Db,
  actor: ConnectorActor,
  input: { definition: unknown },
  rules: ConnectorRules,
) => {
  requireRole("admin", actor.role);
  const def = parseConnectorDefinition(input.definition);
  if (curatedConnector(def.id))
    throw new AppError(
      "CONFLICT",
      `"${def.id}" is a curated connector: set it up from the catalog, or give yours another id`,
      { location: { path: "id" } },
    );
  checkCommand(def, rules);
  checkDestination(def, rules);
  await checkLanes(db, actor.teamId, def);
  await db.$transaction(async (tx) => {
    await createConnector(tx, {
      teamId: actor.teamId,
      slug: def.id,
      createdById: actor.userId,
      max: MAX_CONNECTORS_PER_TEAM,
      ...fieldsOf(def, null),
    });
    await audit(tx, actor, "connector.create", def.id, {
      transport: def.transport,
      lanes: def.lanes.join(","),
    });
  });
  return listingOf(db, actor, def.id);
};

/** Admins: a catalog entry set up for the team with its choices (auth, lanes, rules); enabled unless told. */
export const setUpCuratedConnector = async (
  db: Db,
  actor: ConnectorActor,
  input: { id: string; choice: Record<string, unknown> },
  rules: ConnectorRules,
) => {
  requireRole("admin", actor.role);
  const entry = curatedConnector(input.id);
  if (!entry) throw new AppError("NOT_FOUND", `"${input.id}" is not in the curated catalog`);
  const def = curatedDefinition(entry, { enabled: true, ...input.choice });
  checkDestination(def, rules);
  await checkLanes(db, actor.teamId, def);
  await db.$transaction(async (tx) => {
    const existing = await findConnector(tx, actor.teamId, def.id);
    if (!existing) {
      await createConnector(tx, {
        teamId: actor.teamId,
        slug: def.id,
        createdById: actor.userId,
        max: MAX_CONNECTORS_PER_TEAM,
        ...fieldsOf(def, entry.id),
      });
      await audit(tx, actor, "connector.create", def.id, {
        curated: true,
        lanes: def.lanes.join(","),
      });
      return;
    }
    await updateConnector(tx, { teamId: actor.teamId, slug: def.id, ...fieldsOf(def, entry.id) });
    const moved = await reconnectIfMoved(tx, actor, existing, def);
    await audit(tx, actor, "connector.update", def.id, {
      curated: true,
      lanes: def.lanes.join(","),
      ...moved,
    });
  });
  return listingOf(db, actor, def.id);
};

/** Admins: the whole definition replaced (its id stays); enabling, disabling and tool rules go this way too. */
export const updateTeamConnector = async (
  db: Db,
  actor: ConnectorActor,
  input: { id: string; definition: Record<string, unknown> },
  rules: ConnectorRules,
) => {
  requireRole("admin", actor.role);
  const def = parseConnectorDefinition({ ...input.definition, id: input.id });
  checkDestination(def, rules);
  await checkLanes(db, actor.teamId, def);
  await db.$transaction(async (tx) => {
    const existing = await findConnector(tx, actor.teamId, input.id);
    if (!existing) throw new AppError("NOT_FOUND", `the team has no connector "${input.id}"`);
    checkCommand(def, rules, storedDefinition(existing));
    await updateConnector(tx, {
      teamId: actor.teamId,
      slug: def.id,
      ...fieldsOf(def, existing.curatedKey),
    });
    const moved = await reconnectIfMoved(tx, actor, existing, def);
    await audit(tx, actor, "connector.update", def.id, {
      enabled: def.enabled,
      lanes: def.lanes.join(","),
      ...moved,
    });
  });
  return listingOf(db, actor, def.id);
};

export const removeTeamConnector = async (db: Db, actor: ConnectorActor, input: { id: string }) => {
  requireRole("admin", actor.role);
  await db.$transaction(async (tx) => {
    await removeConnector(tx, { teamId: actor.teamId, slug: input.id });
    await audit(tx, actor, "connector.remove", input.id);
  });
  return { id: input.id };
};

/** The owner a credential change is for: the team's (admins) or the actor's own account. */
const ownerOf = async (db: Db, actor: ConnectorActor, id: string, scope: "team" | "member") => {
  const row = await findConnector(db, actor.teamId, id);
  if (!row) throw new AppError("NOT_FOUND", `the team has no connector "${id}": set it up first`);
  const mode = row.credentialMode;
  if (scope === "team") {
    requireRole("admin", actor.role);
    if (mode !== "team")
      throw new AppError(
        "BAD_REQUEST",
        `connector "${id}" uses each member's own account: members connect their own`,
        { location: { path: "scope" } },
      );
    return TEAM_OWNER;
  }
  requireRole("member", actor.role);
  if (mode !== "member")
    throw new AppError(
      "BAD_REQUEST",
      `connector "${id}" uses the team's account: an admin sets it`,
      { location: { path: "scope" } },
    );
  return actor.userId;
};

export const fingerprintOf = (value: string) =>
  createHash("sha256").update(value).digest("hex").slice(0, 12);

/** Stores a credential sealed for the connector and owner (replacing theirs); the value is never stored or returned in the clear. */
export const storeSealedCredential = async (
  db: Db,
  keyring: Keyring,
  actor: ConnectorActor,
  input: {
    id: string;
    owner: string;
    kind: "api_key" | "oauth";
    value: string;
    fingerprint: string;
    expiresAt: Date | null;
    metadata?: Record<string, string>;
  },
) => {
  const credentialId = newCredentialId();
  const envelope = sealConnectorCredential(
    keyring,
    { teamId: actor.teamId, credentialId, connector: input.id, owner: input.owner },
    input.value,
  );
  const stored = await db.$transaction(async (tx) => {
    const row = await storeConnectorCredential(tx, {
      teamId: actor.teamId,
      slug: input.id,
      owner: input.owner,
      kind: input.kind,
      sealed: { credentialId, envelope },
      fingerprint: input.fingerprint,
      setById: actor.userId,
      expiresAt: input.expiresAt,
      ...(input.metadata ? { metadata: input.metadata } : {}),
    });
    await audit(tx, actor, "connector.credential.set", input.id, {
      owner: input.owner === TEAM_OWNER ? "team" : "member",
      kind: input.kind,
      fingerprint: input.fingerprint,
    });
    return row;
  });
  return shownCredential(stored)!;
};

export const setConnectorCredential = async (
  db: Db,
  keyring: Keyring,
  actor: ConnectorActor,
  input: z.infer<typeof setCredentialBody> & { id: string },
  /** The web app's OAuth egress: a machine-to-machine connector's authorization server is discovered with it. */
  oauthFetch: FetchLike,
): Promise<CredentialSummary> => {
  const owner = await ownerOf(db, actor, input.id, input.scope);
  const value = input.value.trim();
  if (value.length < 8)
    throw new AppError("USER.INPUT.VALIDATION_FAILED", "a credential is at least 8 characters", {
      location: { path: "value" },
    });
  const pinned = await checkClientCredentialValue(db, actor.teamId, input.id, value, oauthFetch);
  return storeSealedCredential(db, keyring, actor, {
    id: input.id,
    owner,
    kind: "api_key",
    value,
    fingerprint: fingerprintOf(value),
    expiresAt: input.expiresAt ?? null,
    ...(pinned ? { metadata: pinned } : {}),
  });
};

export const revokeTeamConnectorCredential = async (
  db: Db,
  actor: ConnectorActor,
  input: { id: string; scope: "team" | "member"; memberId?: string },
) => {
  let owner: string;
  if (input.memberId !== undefined && input.memberId !== actor.userId) {
    requireRole("admin", actor.role);
    owner = input.memberId;
  } else owner = await ownerOf(db, actor, input.id, input.scope);
  await db.$transaction(async (tx) => {
    await revokeConnectorCredential(tx, { teamId: actor.teamId, slug: input.id, owner });
    await audit(tx, actor, "connector.credential.revoke", input.id, {
      owner: owner === TEAM_OWNER ? "team" : "member",
    });
  });
  return { id: input.id, scope: input.scope };
};
