/**
 * runs.list and GET /runs: a page of the team's runs under the list's filters, with how
 * many runs each status has under the same filters, so the tabs show counts that match.
 */
import type { z } from "zod";
import { countRunsByStatus, decodeRunCursor, listRuns, type Db, type RunListFilter } from "@switchyard/db";
import type { runListQuery, runListResponse } from "../contract/runs.types";

export const readRunList = async (db: Db, teamId: string, query: z.output<typeof runListQuery>): Promise<z.input<typeof runListResponse>> => {
  const filter: RunListFilter = {
    status: query.status,
    workflowId: query.workflowId,
    lane: query.lane,
    trigger: query.trigger,
    startedById: query.startedBy,
    from: query.from ? new Date(query.from) : undefined,
    to: query.to ? new Date(query.to) : undefined,
  };
  const cursor = query.cursor ? decodeRunCursor(query.cursor) : undefined;
  const [page, counts] = await Promise.all([listRuns(db, teamId, { ...filter, cursor, take: query.limit }), countRunsByStatus(db, teamId, filter)]);
  return { runs: page.runs, nextCursor: page.nextCursor, counts };
};
