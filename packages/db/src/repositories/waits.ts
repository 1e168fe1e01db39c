/**
 * Waits for a person's answer (a tool call held for approval, first): listed for the team,
 * counted for the navigation, answered, expired and cancelled. A wait changes status once,
 * by compare-and-set from `open`, in the transaction that writes its audit entry; answering
 * and expiring also lock the run's row, so of two waits of one run answered at once exactly
 * one sees the other closed and says the run is to be resumed. Who may answer is core's
 * rule (waitAnswerRefusal); the `mine` filter is the same rule as a query.
 */
import { AppError } from "@switchyard/core/errors";
import {
  acceptedContent,
  describeAnswerers,
  type ElicitationAnswer,
  type ElicitationWaitDetail,
  waitAnswerRefusal,
  type DecisionAnswer,
  type WaitAnswer,
  type WaitExpiry,
} from "@switchyard/core/governance";
import { laneTable, type LaneTable } from "@switchyard/core/policy";
import type { Prisma, Role, WaitStatus } from "../generated/prisma/client";
import type { Db } from "../client";
import type { PrismaClientOrTransaction } from "../transaction";
import { recordAudit } from "./audit-log";
import { applyInputsAnswer, type InputsAnswered } from "./input-waits";
import { queueUnstartedRun } from "./run-lifecycle";

/** Who asks: a member by session, or an API token (`tokenId`) acting as its member. */
export type WaitCaller = { userId: string; role: Role; tokenId?: string };

const ROLES: readonly Role[] = ["viewer", "member", "admin", "owner"];

const waitColumns = {
  id: true,
  runId: true,
  askedById: true,
  stepRunId: true,
  kind: true,
  status: true,
  question: true,
  detail: true,
  argumentsHash: true,
  minRole: true,
  lane: true,
  notStarter: true,
  starterOnly: true,
  expiresAt: true,
  onExpiry: true,
  answer: true,
  answeredById: true,
  answeredByToken: true,
  answeredAt: true,
  parked: true,
  createdAt: true,
  run: {
    select: {
      status: true,
      startedById: true,
      startedBy: { select: { id: true, name: true } },
      workflow: { select: { name: true } },
    },
  },
} as const satisfies Prisma.WaitSelect;

type WaitRow = Prisma.WaitGetPayload<{ select: typeof waitColumns }>;

const lanesOf = async (db: PrismaClientOrTransaction, teamId: string) =>
  laneTable(
    await db.lane.findMany({
      where: { teamId },
      select: { name: true, saveRoles: true, startRoles: true },
    }),
  );

/** The waits `caller` may answer, as a query (core's waitAnswerRefusal, in SQL). */
const answerableBy = (lanes: LaneTable, caller: WaitCaller): Prisma.WaitWhereInput => {
  const rank = ROLES.indexOf(caller.role);
  return {
    lane: {
      in: [...lanes.values()].filter((l) => l.startRoles.includes(caller.role)).map((l) => l.name),
    },
    AND: [
      {
        OR: [
          { minRole: { in: ROLES.filter((_, i) => i <= rank) } },
          // an input wait of a run that runs as the caller
          { kind: "input", run: { startedById: caller.userId } },
        ],
      },
      {
        OR: [
          { notStarter: false },
          { run: { startedById: null } },
          { run: { startedById: { not: caller.userId } } },
        ],
      },
      {
        OR: [
          { starterOnly: false },
          { run: { startedById: null } },
          { run: { startedById: caller.userId } },
          // a console call's form, for the member who made the call
          { runId: null, askedById: caller.userId },
        ],
      },
    ],
  };
};

/** Who stands as the run's starter for the answer rule: the run's, or a console call's member. */
const askerOf = (wait: { askedById: string | null }, run: { startedById: string | null } | null) =>
  run ? run.startedById : wait.askedById;

/** A wait as the API shows it, with whether `caller` may answer it and who may. */
const listingOf = async (
  db: PrismaClientOrTransaction,
  rows: WaitRow[],
  lanes: LaneTable,
  caller: WaitCaller,
) => {
  const answererIds = [...new Set(rows.map((r) => r.answeredById).filter((id) => id !== null))];
  const answerers = new Map(
    (
      await db.user.findMany({
        where: { id: { in: answererIds } },
        select: { id: true, name: true },
      })
    ).map((u) => [u.id, u]),
  );
  return rows.map(({ run, answeredById, ...wait }) => {
    const refusal =
      wait.status === "open"
        ? waitAnswerRefusal(lanes, caller, { ...wait, startedById: askerOf(wait, run) })
        : undefined;
    return {
      ...wait,
      answer: wait.answer as
        | DecisionAnswer
        | InputsAnswered
        | { decision: "fail" }
        | { message: string }
        | ElicitationAnswer
        | null,
      answeredBy: answeredById
        ? (answerers.get(answeredById) ?? { id: answeredById, name: "(removed)" })
        : null,
      // null: a call made by hand in the connector console
      run: run
        ? { status: run.status, workflow: run.workflow.name, startedBy: run.startedBy }
        : null,
      answerers: describeAnswerers(wait),
      mayAnswer: wait.status === "open" && refusal === undefined,
      refusal: refusal?.message ?? null,
    };
  });
};

type WaitListQuery = {
  status?: WaitStatus;
  runId?: string;
  /** only those the caller may answer (open ones, then) */
  mine?: boolean;
  /** the id of the last wait of the page before */
  cursor?: string;
  limit?: number;
};

/**
 * A page of the team's waits, newest first (waits of one moment by id), each with whether
 * `caller` may answer it; `nextCursor` is null on the last page.
 */
export const listWaits = async (
  db: Db,
  teamId: string,
  caller: WaitCaller,
  query: WaitListQuery = {},
) => {
  const lanes = await lanesOf(db, teamId);
  const take = Math.min(Math.max(query.limit ?? 50, 1), 200);
  let before: Prisma.WaitWhereInput = {};
  if (query.cursor !== undefined) {
    const last = await db.wait.findFirst({
      where: { id: query.cursor, teamId },
      select: { id: true, createdAt: true },
    });
    if (!last)
      throw new AppError("BAD_REQUEST", "the cursor is not a wait of this team", {
        location: { path: "cursor" },
      });
    before = {
      OR: [
        { createdAt: { lt: last.createdAt } },
        { createdAt: last.createdAt, id: { lt: last.id } },
      ],
    };
  }
  const rows = await db.wait.findMany({
    where: {
      AND: [
        { teamId },
        query.mine ? { status: "open" } : query.status ? { status: query.status } : {},
        query.mine && query.status && query.status !== "open" ? { id: { in: [] } } : {},
        query.runId ? { runId: query.runId } : {},
        query.mine ? answerableBy(lanes, caller) : {},
        before,
      ],
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: take + 1,
    select: waitColumns,
  });
  const page = rows.slice(0, take);
  return {
    waits: await listingOf(db, page, lanes, caller),
    nextCursor: rows.length > take ? (page[page.length - 1]?.id ?? null) : null,
  };
};

/** One wait of the team, or undefined. */
export const getWait = async (db: Db, teamId: string, caller: WaitCaller, waitId: string) => {
  const row = await db.wait.findFirst({ where: { id: waitId, teamId }, select: waitColumns });
  if (!row) return undefined;
  return (await listingOf(db, [row], await lanesOf(db, teamId), caller))[0];
};

/** How many open waits `caller` may answer (the navigation's badge). */
export const countOpenWaitsFor = async (db: Db, teamId: string, caller: WaitCaller) =>
  db.wait.count({
    where: { teamId, status: "open", ...answerableBy(await lanesOf(db, teamId), caller) },
  });

/** Locks the run's row for the rest of the transaction: its waits' closing is decided one at a time. */
const lockRun = async (tx: Prisma.TransactionClient, runId: string | null) => {
  // A console call's wait has no run to lock: its row's compare-and-set decides alone.
  if (runId !== null) await tx.$queryRaw`SELECT id FROM "Run" WHERE id = ${runId} FOR UPDATE`;
};

/**
 * Whether the run is to be enqueued again now that `wait` closed: it was parked on it, the
 * run is `waiting`, and no other parked wait of the run is still open. A run that never
 * started (it waited for its inputs) is queued again here.
 */
const resumesRun = async (
  tx: Prisma.TransactionClient,
  wait: { id: string; runId: string | null; teamId: string; parked: boolean },
) => {
  if (!wait.parked || wait.runId === null) return false;
  const run = await tx.run.findFirst({
    where: { id: wait.runId, teamId: wait.teamId },
    select: { status: true },
  });
  if (run?.status !== "waiting") return false;
  const others = await tx.wait.count({
    where: { runId: wait.runId, teamId: wait.teamId, status: "open", parked: true },
  });
  if (others > 0) return false;
  // A run that waited for its inputs before it started is queued, to start within the team's limit.
  await queueUnstartedRun(tx, wait.teamId, wait.runId);
  return true;
};

const closedRefusal = (wait: { status: WaitStatus; expiresAt: Date | null }, now: Date) => {
  switch (wait.status) {
    case "answered":
      return new AppError("USER.WAIT.ALREADY_ANSWERED", "this wait has already been answered");
    case "expired":
      return new AppError("USER.WAIT.EXPIRED", "this wait expired before it was answered");
    case "cancelled":
      return new AppError(
        "NOT_FOUND",
        "this wait was cancelled: its run ended before anyone answered",
      );
    case "open":
      return wait.expiresAt && wait.expiresAt <= now
        ? new AppError("USER.WAIT.EXPIRED", `this wait expired at ${wait.expiresAt.toISOString()}`)
        : undefined;
  }
};

/**
 * The answer to keep for the wait's kind: a tool call's decision (a denial with its message),
 * or an `input` wait's inputs, checked and merged into the run's. An answer of the other
 * shape is refused, saying which the wait takes.
 */
const answerOfKind = async (
  tx: Prisma.TransactionClient,
  wait: { kind: string; teamId: string; runId: string | null; detail: unknown },
  given: WaitAnswer,
): Promise<DecisionAnswer | InputsAnswered | { message: string } | ElicitationAnswer> => {
  if (wait.kind === "elicitation") return elicitationAnswerOf(wait.detail, given);
  if (wait.kind === "message") {
    // A conversation takes the person's next message (exit, quit or an empty one ends it).
    if ("decision" in given || !("message" in given))
      throw new AppError(
        "BAD_REQUEST",
        'this wait is a conversation: answer it with { "message": "..." } (exit, quit or an empty message ends it)',
        { location: { path: "message" } },
      );
    return { message: given.message };
  }
  if (wait.kind === "input" && wait.runId !== null) {
    if (!("inputs" in given))
      throw new AppError(
        "BAD_REQUEST",
        'this wait asks for the run\'s missing inputs: answer with { "inputs": { "<name>": <value> } }',
        { location: { path: "inputs" } },
      );
    return applyInputsAnswer(tx, { ...wait, runId: wait.runId }, given.inputs);
  }
  if (!("decision" in given))
    throw new AppError(
      "BAD_REQUEST",
      'this wait asks for a decision: answer with { "decision": "approve" | "deny" }',
      { location: { path: "decision" } },
    );
  return given.decision === "deny" && given.message
    ? { decision: "deny", message: given.message }
    : { decision: given.decision };
};

/**
 * Answers an open wait, in one transaction with its audit entry (the decision, never the
 * call's arguments or the message). Refused when it is answered already, expired, not the
 * caller's to answer, or not the team's. `resume`: the run is to be enqueued again.
 */
export const answerWait = async (
  db: Db,
  input: { teamId: string; waitId: string; answer: WaitAnswer; caller: WaitCaller },
) => {
  const { teamId, waitId, caller } = input;
  return db.$transaction(async (tx) => {
    const found = await tx.wait.findFirst({
      where: { id: waitId, teamId },
      select: { runId: true },
    });
    if (!found) throw new AppError("NOT_FOUND", "wait not found");
    await lockRun(tx, found.runId);
    const wait = await tx.wait.findFirst({
      where: { id: waitId, teamId },
      select: { ...waitColumns, teamId: true },
    });
    if (!wait) throw new AppError("NOT_FOUND", "wait not found");
    const now = new Date();
    const closed = closedRefusal(wait, now);
    if (closed) throw closed;
    const refused = waitAnswerRefusal(await lanesOf(tx, teamId), caller, {
      ...wait,
      startedById: askerOf(wait, wait.run),
    });
    if (refused) throw refused;
    const answer = await answerOfKind(tx, wait, input.answer);
    const { count } = await tx.wait.updateMany({
      where: { id: waitId, teamId, status: "open" },
      data: {
        status: "answered",
        answer: answer as Prisma.InputJsonValue,
        answeredById: caller.userId,
        answeredByToken: caller.tokenId ?? null,
        answeredAt: now,
      },
    });
    if (count !== 1)
      throw new AppError("USER.WAIT.ALREADY_ANSWERED", "this wait has already been answered");
    await recordAudit(tx, {
      teamId,
      actorUserId: caller.userId,
      actorToken: caller.tokenId,
      action: "wait.answered",
      targetType: "wait",
      targetId: waitId,
      metadata: {
        runId: wait.runId,
        kind: wait.kind,
        // never the message itself, nor a form's content
        decision: decisionWord(answer),
      },
    });
    return {
      wait: { id: waitId, runId: wait.runId, status: "answered" as const, answer },
      resume: await resumesRun(tx, wait),
    };
  });
};

/** An answer in one word for the audit log: the decision, the form's action, or "message". */
const decisionWord = (answer: object) =>
  "decision" in answer
    ? String(answer.decision)
    : "action" in answer
      ? String(answer.action)
      : "message";

/**
 * A connector server's form answered: accept (its content checked against the form, with
 * the defaults of left-out fields), decline or cancel.
 */
const elicitationAnswerOf = (detail: unknown, given: WaitAnswer): ElicitationAnswer => {
  if (!("action" in given))
    throw new AppError(
      "BAD_REQUEST",
      'this wait is a connector\'s form: answer with { "action": "accept", "content": { ... } }, or "decline" or "cancel"',
      { location: { path: "action" } },
    );
  if (given.action !== "accept") return { action: given.action };
  const fields = (detail as Partial<ElicitationWaitDetail>).fields ?? [];
  return { action: "accept", content: acceptedContent(fields, given.content ?? {}) };
};

type ExpiryAnswer = { decision: string; message?: string };
const EXPIRED_DENIAL: ExpiryAnswer = { decision: "deny", message: "the approval expired" };

/** The answer expiry gives under each `onExpiry` (a default that is not an answer denies). */
const expiryAnswer = (onExpiry: string, defaultAnswer: unknown): ExpiryAnswer => {
  switch (onExpiry as WaitExpiry) {
    case "fail":
      return { decision: "fail" };
    case "default": {
      const given = defaultAnswer as { decision?: unknown; message?: unknown } | null;
      return given && (given.decision === "approve" || given.decision === "deny")
        ? {
            decision: given.decision,
            ...(typeof given.message === "string" ? { message: given.message } : {}),
          }
        : EXPIRED_DENIAL;
    }
    case "deny":
      return EXPIRED_DENIAL;
  }
  return EXPIRED_DENIAL;
};

/** Waits one expiry sweep closes at most (the rest wait for the next). */
const EXPIRY_BATCH = 200;

/**
 * Closes the open waits of every team whose time is up (`expired`, answered as `onExpiry`
 * says), each with its audit entry; returns the runs to enqueue again (those parked on a
 * wait that closed, with no other parked wait open). Cheap when nothing is due: one read
 * through the (status, expiresAt) index.
 */
export const expireDueWaits = async (db: Db, now: Date) => {
  const due = await db.wait.findMany({
    where: { status: "open", expiresAt: { lte: now } },
    select: { id: true, teamId: true, runId: true },
    orderBy: { expiresAt: "asc" },
    take: EXPIRY_BATCH,
  });
  const resume: { teamId: string; runId: string }[] = [];
  for (const { id, teamId, runId } of due) {
    const resumes = await db.$transaction(async (tx) => {
      await lockRun(tx, runId);
      const wait = await tx.wait.findFirst({
        where: { id, teamId, status: "open" },
        select: {
          id: true,
          teamId: true,
          runId: true,
          kind: true,
          parked: true,
          onExpiry: true,
          defaultAnswer: true,
        },
      });
      if (!wait) return false;
      // A conversation whose next message did not come ends, as an empty message ends it; a
      // server's form nobody filled in is cancelled, as the spec says of a dismissed one.
      const answer =
        wait.kind === "message"
          ? { message: "" }
          : wait.kind === "elicitation"
            ? { action: "cancel" as const }
            : expiryAnswer(wait.onExpiry, wait.defaultAnswer);
      const { count } = await tx.wait.updateMany({
        where: { id, teamId, status: "open" },
        data: { status: "expired", answer, answeredAt: now },
      });
      if (count !== 1) return false;
      await recordAudit(tx, {
        teamId,
        actorUserId: null,
        action: "wait.expired",
        targetType: "wait",
        targetId: id,
        metadata: {
          runId,
          kind: wait.kind,
          onExpiry: wait.onExpiry,
          decision: decisionWord(answer),
        },
      });
      return resumesRun(tx, wait);
    });
    if (resumes && runId !== null && !resume.some((r) => r.runId === runId))
      resume.push({ teamId, runId });
  }
  return resume;
};

/** Closes a run's open waits as cancelled (the run was cancelled or ended); how many it closed. */
export const cancelRunWaits = async (
  db: PrismaClientOrTransaction,
  teamId: string,
  runId: string,
) =>
  (
    await db.wait.updateMany({
      where: { teamId, runId, status: "open" },
      data: { status: "cancelled", answeredAt: new Date() },
    })
  ).count;

/**
 * The members who may answer an open wait, with their addresses, and what a message about
 * it says (its question, the run's workflow); undefined when the team has no such open wait.
 */
export const waitAnswerersOf = async (db: Db, teamId: string, waitId: string) => {
  const wait = await db.wait.findFirst({
    where: { id: waitId, teamId, status: "open" },
    select: waitColumns,
  });
  if (!wait) return undefined;
  const lanes = await lanesOf(db, teamId);
  const members = await db.membership.findMany({
    where: { teamId },
    select: { role: true, user: { select: { id: true, email: true, name: true } } },
  });
  const rule = { ...wait, startedById: askerOf(wait, wait.run) };
  return {
    wait: { id: wait.id, runId: wait.runId, kind: wait.kind, question: wait.question },
    workflow: wait.run?.workflow.name ?? "connector console",
    answerers: members
      .filter((m) => !waitAnswerRefusal(lanes, { userId: m.user.id, role: m.role }, rule))
      .map((m) => m.user),
  };
};
