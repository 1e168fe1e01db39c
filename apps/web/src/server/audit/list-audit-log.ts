/**
 * The team's audit log for its admins: a page of entries, newest first, narrowed to the
 * actions that start with a prefix. Members are refused: entries name people, connectors
 * and secrets across the whole team.
 */
import type { z } from "zod";
import { listAuditLog, type Db, type Role } from "@switchyard/db";
import type { auditListInput } from "../contract/audit.types";
import { requireRole } from "../trpc/init";

type AuditActor = { teamId: string; role: Role };

export const listTeamAuditLog = (
  db: Db,
  actor: AuditActor,
  input: z.output<typeof auditListInput>,
) => {
  requireRole("admin", actor.role);
  return listAuditLog(db, {
    teamId: actor.teamId,
    limit: input.limit,
    ...(input.cursor ? { cursor: input.cursor } : {}),
    ...(input.action ? { actionPrefix: input.action } : {}),
  });
};
