/**
 * Team-scoped reads of workflows and the lanes they run in. Every query filters on teamId.
 */
import {
  checkRunReach,
  collectRunReach,
  laneTable,
  type CalleeSource,
  type ConnectorRule,
  type LaneTable,
  type ReachedWorkflow,
  type Role,
} from "@switchyard/core/policy";
import { reconnectRefusal } from "@switchyard/core/connectors";
import { AppError } from "@switchyard/core/errors";
import { rawQuery, type Db } from "../client";
import { loadBundle, parseBundle } from "./bundle-store";
import { recordAudit } from "./audit-log";
import { secretRules } from "./variables";

/** The team's workflows that are not archived, by name, with their current versions. */
export const listWorkflows = (db: Db, teamId: string) =>
  db.workflow.findMany({
    where: { teamId, archivedAt: null },
    orderBy: { name: "asc" },
    include: {
      currentVersion: { select: { id: true, number: true, bundleHash: true } },
      runs: {
        orderBy: { createdAt: "desc" },
        take: 1,
        select: { id: true, status: true, createdAt: true },
      },
    },
  });

/** The team's workflow with its current version, or null. */
export const getWorkflow = (db: Db, teamId: string, workflowId: string) =>
  db.workflow.findFirst({ where: { id: workflowId, teamId }, include: { currentVersion: true } });

/** The team's workflow of that name, archived or not; undefined when there is none. */
export const findWorkflowByName = async (db: Db, teamId: string, name: string) =>
  (await db.workflow.findUnique({ where: { teamId_name: { teamId, name } } })) ?? undefined;

/**
 * The id of the team's workflow `ref` names: its id, or the name of a live workflow
 * (`speckit/specify` for a pack's); `ref` itself when neither, for the caller's not-found.
 */
export const workflowIdOf = async (db: Db, teamId: string, ref: string) => {
  const byId = await db.workflow.findFirst({ where: { id: ref, teamId }, select: { id: true } });
  if (byId) return byId.id;
  const byName = await db.workflow.findFirst({
    where: { teamId, name: ref, archivedAt: null },
    select: { id: true },
  });
  return byName?.id ?? ref;
};

/** The current version of the team's live workflow of that name, as call_workflow resolves it. */
export const currentVersionIdByName = async (db: Db, teamId: string, name: string) =>
  (
    await db.workflow.findFirst({
      where: { teamId, name, archivedAt: null },
      select: { currentVersionId: true },
    })
  )?.currentVersionId ?? undefined;

/** The team's connectors as the lane policy reads them, by id. */
export const connectorRules = async (
  db: Db,
  teamId: string,
  slugs?: readonly string[],
): Promise<Map<string, ConnectorRule>> =>
  new Map(
    (
      await rawQuery<ConnectorRule & { slug: string }>(
        db,
        `SELECT slug, lanes, enabled FROM "Connector"
         WHERE "teamId" = $1 AND ($2::text[] IS NULL OR slug = ANY ($2::text[]))`,
        [teamId, slugs ? [...slugs] : null],
      )
    ).map((c) => [c.slug, c]),
  );

/** The team's lanes, as the lane policy reads them (a run's start reads them: a plain statement). */
export const laneRules = async (db: Db, teamId: string): Promise<LaneTable> =>
  laneTable(
    await rawQuery<{ name: string; saveRoles: Role[]; startRoles: Role[] }>(
      db,
      `SELECT name, "saveRoles"::text[] AS "saveRoles", "startRoles"::text[] AS "startRoles"
       FROM "Lane" WHERE "teamId" = $1`,
      [teamId],
    ),
  );

/**
 * call_workflow's view of the team, for the lane policy: a workflow by name, parsed, with
 * its lane, at its current version or at the version a run pinned.
 */
const calleeSource =
  (db: Db, teamId: string, pinned?: Record<string, string>): CalleeSource =>
  async (name) => {
    const row = await db.workflow.findFirst({
      where: { teamId, name },
      select: { lane: true, currentVersionId: true, archivedAt: true, pack: true },
    });
    const versionId = pinned ? pinned[name] : row?.archivedAt ? undefined : row?.currentVersionId;
    if (!row || !versionId) return undefined;
    const bundle = await loadBundle(db, teamId, versionId);
    const workflow = bundle && parseBundle(bundle, `${name}/${bundle.version.entryPath}`).workflow;
    return workflow && { workflow, lane: row.lane, pack: row.pack };
  };

type RunReachInput = {
  root: ReachedWorkflow;
  lanes: LaneTable;
  /** who saves or starts; undefined for a run without a starter */
  role: Role | undefined;
  /** the versions a run pinned; the team's current versions otherwise */
  pinned?: Record<string, string>;
  /** who starts the run: connectors used with each member's own account need theirs */
  starterId?: string | null;
};

/** A connector's definition as stored needs a credential to be reached. */
const needsCredential = (transport: string, config: unknown) => {
  const c = (config ?? {}) as { credential_env?: unknown; auth?: unknown };
  // An enterprise connector's token comes from the member's sign-in, not a stored credential.
  return transport === "stdio"
    ? typeof c.credential_env === "string"
    : c.auth !== "none" && c.auth !== "enterprise";
};

/**
 * The first connector the run names whose account is not ready: one used with each member's
 * own account that the starter has not connected, or a credential whose OAuth grant must be
 * connected again.
 */
const unreadyAccount = async (
  db: Db,
  teamId: string,
  slugs: ReadonlySet<string>,
  starterId: string | null,
) => {
  if (slugs.size === 0) return undefined;
  const rows = await db.connector.findMany({
    where: { teamId, slug: { in: [...slugs] } },
    select: {
      slug: true,
      transport: true,
      config: true,
      credentialMode: true,
      credentials: { select: { owner: true, status: true, reconnectReason: true } },
    },
  });
  for (const row of rows) {
    if (!needsCredential(row.transport, row.config)) continue;
    const owner = row.credentialMode === "member" ? starterId : "team";
    const credential = row.credentials.find((c) => c.owner === owner);
    if (row.credentialMode === "member" && !credential)
      return new AppError(
        "USER.CONNECTOR.NOT_CONNECTED",
        starterId
          ? `connector "${row.slug}" uses each member's own account, and the member starting this run has not connected theirs: connect it on the Connectors page first`
          : `connector "${row.slug}" uses each member's own account, and this run has no member who started it`,
      );
    if (credential?.status === "needs_reconnect")
      return reconnectRefusal(row.slug, credential.reconnectReason);
  }
  return undefined;
};

/** The lane policy on everything a run of `root` reaches: the first refusal, or undefined. */
export const runReachRefusal = async (db: Db, teamId: string, input: RunReachInput) => {
  const [reach, secrets, connectors] = await Promise.all([
    collectRunReach(input.root, calleeSource(db, teamId, input.pinned)),
    secretRules(db, teamId),
    connectorRules(db, teamId),
  ]);
  const refused = checkRunReach({
    lanes: input.lanes,
    reach,
    role: input.role,
    secrets,
    connectors,
  });
  if (refused || input.starterId === undefined) return refused;
  const named = new Set<string>();
  for (const { workflow } of [reach.root, ...reach.callees.values()])
    for (const state of workflow.states.values())
      if (state.kind === "agent") for (const id of state.mcpProxy?.connectors ?? []) named.add(id);
  return unreadyAccount(db, teamId, named, input.starterId);
};

/** A workflow's saved versions, newest first, each with who saved it (name and email, when known). */
export const listWorkflowVersions = async (db: Db, teamId: string, workflowId: string) => {
  const versions = await db.workflowVersion.findMany({
    where: { teamId, workflowId },
    orderBy: { number: "desc" },
    select: {
      id: true,
      number: true,
      bundleHash: true,
      entryPath: true,
      createdAt: true,
      createdById: true,
      commitId: true,
    },
  });
  const ids = [
    ...new Set(versions.map((v) => v.createdById).filter((id): id is string => id !== null)),
  ];
  const users = ids.length
    ? await db.user.findMany({
        where: { id: { in: ids }, memberships: { some: { teamId } } },
        select: { id: true, name: true, email: true },
      })
    : [];
  const byId = new Map(users.map((u) => [u.id, u]));
  return versions.map((v) => ({
    ...v,
    createdBy: v.createdById ? (byId.get(v.createdById) ?? null) : null,
  }));
};

/** The version of a team's workflow with that number, or undefined. */
export const findWorkflowVersion = async (
  db: Db,
  teamId: string,
  workflowId: string,
  number: number,
) => (await db.workflowVersion.findFirst({ where: { teamId, workflowId, number } })) ?? undefined;

/**
 * Archives a workflow: it leaves the list, cannot be started or called, and keeps its
 * versions and runs. Recorded in the audit log with the change. Archiving twice is a no-op.
 */
export const archiveWorkflow = async (
  db: Db,
  input: { teamId: string; workflowId: string; actorUserId: string },
) =>
  db.$transaction(async (tx) => {
    const row = await tx.workflow.findFirst({
      where: { id: input.workflowId, teamId: input.teamId },
    });
    if (!row) throw new AppError("NOT_FOUND", "workflow not found");
    if (row.archivedAt) return row;
    const updated = await tx.workflow.update({
      where: { id: row.id },
      data: { archivedAt: new Date() },
    });
    await recordAudit(tx, {
      teamId: input.teamId,
      actorUserId: input.actorUserId,
      action: "workflow.archive",
      targetType: "workflow",
      targetId: row.id,
      metadata: { name: row.name },
    });
    return updated;
  });
