/**
 * The audit log: who changed what, never a value. Written in the same transaction as the
 * change it records; read a page at a time: a team's entries by its admins, the
 * installation's own (entries without a team) by instance admins.
 */
import { AppError } from "@switchyard/core/errors";
import { currentRequestId } from "@switchyard/core/context";
import type { Prisma } from "../generated/prisma/client";
import type { PrismaClientOrTransaction } from "../transaction";

/** `teamId` null: an entry of the installation's own; `actorToken`: the API token the change came with. */
type AuditEntry = {
  teamId: string | null;
  actorUserId: string | null;
  actorToken?: string;
  action: string;
  targetType: string;
  targetId: string;
  metadata?: Prisma.InputJsonValue;
};

/** Written with the id of the request being served (undefined outside one: the worker, a script). */
export const recordAudit = async (tx: PrismaClientOrTransaction, entry: AuditEntry) => {
  await tx.auditLog.create({
    data: { ...entry, actorToken: entry.actorToken ?? null, requestId: currentRequestId() ?? null },
  });
};

type AuditQuery = {
  /** null: the installation's own entries */
  teamId: string | null;
  /** the id of the last entry of the page before */
  cursor?: string;
  /** only actions that start with this */
  actionPrefix?: string;
  limit: number;
};

/**
 * A page of the team's (or the installation's) entries, newest first (entries of one moment by id), each with its
 * actor's name and email; `nextCursor` is null on the last page. A cursor that is not an
 * entry of the team is refused.
 */
export const listAuditLog = async (db: PrismaClientOrTransaction, query: AuditQuery) => {
  const { teamId, cursor, actionPrefix, limit } = query;
  let before: Prisma.AuditLogWhereInput = {};
  if (cursor !== undefined) {
    const last = await db.auditLog.findFirst({
      where: { id: cursor, teamId },
      select: { id: true, createdAt: true },
    });
    if (!last)
      throw new AppError(
        "BAD_REQUEST",
        `the cursor is not an entry of this ${teamId === null ? "installation" : "team"}'s audit log`,
        { location: { path: "cursor" } },
      );
    before = {
      OR: [
        { createdAt: { lt: last.createdAt } },
        { createdAt: last.createdAt, id: { lt: last.id } },
      ],
    };
  }
  const rows = await db.auditLog.findMany({
    where: { teamId, ...(actionPrefix ? { action: { startsWith: actionPrefix } } : {}), ...before },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  const page = rows.slice(0, limit);
  const actorIds = [
    ...new Set(page.map((r) => r.actorUserId).filter((id): id is string => id !== null)),
  ];
  const actors = new Map(
    (actorIds.length > 0
      ? await db.user.findMany({
          where: { id: { in: actorIds } },
          select: { id: true, name: true, email: true },
        })
      : []
    ).map((u) => [u.id, u]),
  );
  return {
    entries: page.map((r) => ({
      id: r.id,
      action: r.action,
      targetType: r.targetType,
      targetId: r.targetId,
      actorUserId: r.actorUserId,
      actor: r.actorUserId ? (actors.get(r.actorUserId) ?? null) : null,
      actorToken: r.actorToken,
      requestId: r.requestId,
      metadata: r.metadata,
      createdAt: r.createdAt,
    })),
    nextCursor: rows.length > limit ? (page.at(-1)?.id ?? null) : null,
  };
};
