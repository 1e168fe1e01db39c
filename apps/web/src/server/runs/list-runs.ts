/**
 * runs.list and GET /runs: a page of the team's runs under the list's filters, with how
 * many runs each status has under the same filters, so the tabs show counts that match.
 * Counting is the expensive part of a large team's list (every matching run, on every
 * request), so counts of 10,000 runs or more are kept for a few seconds per team and
 * filter and refreshed behind the answer; smaller counts are always exact and current.
 */
import type { z } from "zod";
import {
  countRunsByStatus,
  decodeRunCursor,
  listRuns,
  type Db,
  type RunListFilter,
} from "@switchyard/db";
import type { runListQuery, runListResponse } from "../contract/runs.types";

type Counts = Awaited<ReturnType<typeof countRunsByStatus>>;

/** From how many runs counts are kept, how long before they are refreshed, and how many filters are kept. */
const COUNT_CACHE = { from: 10_000, freshMs: 5_000, entries: 500 } as const;

const cached = new Map<string, { at: number; counts: Counts; refreshing: boolean }>();

const total = (counts: Counts) => Object.values(counts).reduce((a, b) => a + b, 0);

const countNow = async (db: Db, teamId: string, filter: RunListFilter, key: string) => {
  const counts = await countRunsByStatus(db, teamId, filter);
  if (total(counts) >= COUNT_CACHE.from) {
    cached.delete(key);
    cached.set(key, { at: Date.now(), counts, refreshing: false });
    // The oldest entry goes first (a Map keeps insertion order).
    if (cached.size > COUNT_CACHE.entries) cached.delete(cached.keys().next().value!);
  } else cached.delete(key);
  return counts;
};

const countsOf = async (db: Db, teamId: string, filter: RunListFilter) => {
  const key = JSON.stringify([teamId, { ...filter, status: undefined }]);
  const hit = cached.get(key);
  if (!hit) return countNow(db, teamId, filter, key);
  if (Date.now() - hit.at > COUNT_CACHE.freshMs && !hit.refreshing) {
    hit.refreshing = true;
    countNow(db, teamId, filter, key).catch(() => {
      hit.refreshing = false;
    });
  }
  return hit.counts;
};

export const readRunList = async (
  db: Db,
  teamId: string,
  query: z.output<typeof runListQuery>,
): Promise<z.input<typeof runListResponse>> => {
  const filter: RunListFilter = {
    status: query.status,
    workflowId: query.workflowId,
    lane: query.lane,
    trigger: query.trigger,
    startedById: query.startedBy,
    from: query.from ? new Date(query.from) : undefined,
    to: query.to ? new Date(query.to) : undefined,
    example: query.example === "true",
  };
  const cursor = query.cursor ? decodeRunCursor(query.cursor) : undefined;
  const [page, counts] = await Promise.all([
    listRuns(db, teamId, { ...filter, cursor, take: query.limit }),
    countsOf(db, teamId, filter),
  ]);
  return { runs: page.runs, nextCursor: page.nextCursor, counts };
};
