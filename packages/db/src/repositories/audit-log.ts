/**
 * The team's audit log: who changed what, never a value. Written in the same transaction
 * as the change it records.
 */
import type { Prisma } from "../generated/prisma/client";
import type { PrismaClientOrTransaction } from "../transaction";

type AuditEntry = { teamId: string; actorUserId: string; action: string; targetType: string; targetId: string; metadata?: Prisma.InputJsonValue };

export const recordAudit = async (tx: PrismaClientOrTransaction, entry: AuditEntry) => {
  await tx.auditLog.create({ data: entry });
};
