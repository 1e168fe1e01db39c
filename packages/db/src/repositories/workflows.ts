/**
 * Team-scoped reads of workflows. Every query filters on teamId.
 */
import type { Db } from "../client";

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

export const getWorkflow = (db: Db, teamId: string, workflowId: string) =>
  db.workflow.findFirst({ where: { id: workflowId, teamId }, include: { currentVersion: true } });
