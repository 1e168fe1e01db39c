/**
 * A connector server's form during a tool call (`elicitation/create`), asked of a person
 * through a wait (docs/governance.md, "Forms a connector asks"): the wait (kind
 * `elicitation`, the server's message and schema scrubbed) is opened for the run's starter,
 * or for the member who made a console call, and the call is held open while it is read.
 * The answer goes back to the server as the spec's result: accept with the form's content
 * (defaults applied and checked when it was given), decline, or cancel; a wait that expires,
 * is cancelled with its run, or outlives the call is a cancel. The agent sees only the
 * tool's result. A form the pool could not tell the call of is cancelled there, and kept in
 * the team's audit log (`connector.form_cancelled`, with why: never the server's message).
 */
import type { ElicitHandler } from "@switchyard/core/connectors/host";
import { elicitationFields, type ElicitationWaitDetail } from "@switchyard/core/governance";
import { capValue } from "@switchyard/core/mcp";
import type { Scrubber } from "@switchyard/core/secrets";
import {
  cancelWait,
  openElicitationWait,
  readWaitState,
  recordAudit,
  type Db,
} from "@switchyard/db";
import { WAIT_POLL_MS } from "./attempt-governance";
import { ofPoolId } from "./connector-tasks";
import type { Logger } from "./logger";
import { wakeableSleep, type WaitWakers } from "./wait-wakers";

/** How long past its expiry a wait is still read, for the expiry sweep to close it. */
const EXPIRY_GRACE_MS = 10_000;
const QUESTION_CHARS = 200;

/** How much longer than its form's wait a call may take (the sweep closes the wait, then the server answers). */
export const ELICITATION_CALL_MARGIN_MS = EXPIRY_GRACE_MS + 30_000;

export type ElicitationAsker = {
  db: Db;
  log: Logger;
  scrubber: Scrubber;
  teamId: string;
  lane: string;
  /** The run of the step; null for a console call, whose form only `askedById` answers. */
  runId: string | null;
  askedById?: string | null;
  stepRunId?: string | undefined;
  state?: string | undefined;
  /** How long the form waits for its answer before it is cancelled. */
  waitMs: number;
  /** A wait opened (for notifications and the live views). */
  onWaitOpened?: (waitId: string) => void;
  /** Wakes the held call when its form's answer is announced. */
  waitWakers?: WaitWakers;
  /**
   * How often the held call reads its form's wait when no answer is announced
   * (SWITCHYARD_WAIT_POLL_MS).
   * @default WAIT_POLL_MS
   */
  pollMs?: number;
};

type Answer = { action?: string; content?: Record<string, unknown> };
/** An accepted form's content as stored: checked against the form when it was given. */
type Accepted = Record<string, string | number | boolean | string[]>;

/** The `elicit` of one call of `connector`'s `tool`: each form the server sends becomes a wait. */
export const elicitThroughWaits =
  (deps: ElicitationAsker, call: { connector: string; tool: string }): ElicitHandler =>
  async (request, signal) => {
    let fields;
    try {
      fields = elicitationFields(request.requestedSchema);
    } catch (error) {
      // A form no one could fill in is not shown: the server hears it was dismissed.
      deps.log.warn("a connector sent a form outside the spec's schema; cancelled", {
        connector: call.connector,
        error: (error as Error).message,
      });
      return { action: "cancel" };
    }
    const message = deps.scrubber.scrub(request.message);
    const detail: ElicitationWaitDetail = {
      connector: call.connector,
      tool: call.tool,
      message,
      requestedSchema: capValue(deps.scrubber.scrubValue(request.requestedSchema)) as Record<
        string,
        unknown
      >,
      fields: deps.scrubber.scrubValue(fields),
      ...(deps.state ? { state: deps.state } : {}),
    };
    const firstLine = message.split("\n")[0] ?? "";
    const expiresAt = new Date(Date.now() + deps.waitMs);
    const waitId = await openElicitationWait(deps.db, {
      teamId: deps.teamId,
      runId: deps.runId,
      stepRunId: deps.stepRunId ?? null,
      askedById: deps.askedById ?? null,
      question: `${call.connector} asks: ${firstLine.slice(0, QUESTION_CHARS)}`,
      detail: detail as never,
      lane: deps.lane,
      ...(deps.runId === null ? { minRole: "admin" as const } : {}),
      expiresAt,
    });
    // Listening before the first read: an answer announced in between still wakes the call.
    const waking = wakeableSleep(deps.waitWakers, waitId);
    try {
      deps.onWaitOpened?.(waitId);
      return await answerOf(deps, waitId, expiresAt, signal, waking.sleep);
    } finally {
      waking.close();
    }
  };

/** Reads the form's wait until it is answered or closed, or the call gives up. */
const answerOf = async (
  deps: ElicitationAsker,
  waitId: string,
  expiresAt: Date,
  signal: AbortSignal,
  sleep: (ms: number, signal: AbortSignal) => Promise<void>,
): Promise<{ action: "cancel" | "decline" } | { action: "accept"; content: Accepted }> => {
  const pollMs = deps.pollMs ?? WAIT_POLL_MS;
  const giveUpAt = expiresAt.getTime() + EXPIRY_GRACE_MS;
  for (;;) {
    const state = await readWaitState(deps.db, deps.teamId, waitId);
    if (!state) return { action: "cancel" };
    if (state.status === "answered") {
      const answer = (state.answer ?? {}) as Answer;
      if (answer.action === "accept")
        return { action: "accept", content: (answer.content ?? {}) as Accepted };
      return { action: answer.action === "decline" ? "decline" : "cancel" };
    }
    // Expired, or cancelled with its run: dismissed.
    if (state.status !== "open") return { action: "cancel" };
    if (signal.aborted || Date.now() >= giveUpAt) {
      // The call ended (or the server gave up): nobody is asked about a form no one reads.
      await cancelWait(deps.db, deps.teamId, waitId);
      return { action: "cancel" };
    }
    // Read again at the wait's expiry at the latest, then each second until the expiry
    // sweep has closed it or the give-up time has come.
    const now = Date.now();
    const next = now < expiresAt.getTime() ? expiresAt.getTime() : Math.min(giveUpAt, now + 1000);
    await sleep(Math.max(1, Math.min(pollMs, next - now)), signal);
  }
};

/** The pool's `onFormRefused`: a form that went to nobody, in the team's audit log. */
export const auditRefusedForm =
  (db: Db, log: Logger) =>
  ({ connectorId, reason }: { connectorId: string; reason: string }): void => {
    const { teamId, slug, owner } = ofPoolId(connectorId);
    log.warn("a connector's form went to nobody; cancelled", { connector: slug, reason });
    void recordAudit(db, {
      teamId,
      actorUserId: null,
      action: "connector.form_cancelled",
      targetType: "connector",
      targetId: slug,
      metadata: { reason, owner },
    }).catch((error: unknown) =>
      log.warn("a cancelled form could not be audited", {
        connector: slug,
        error: error instanceof Error ? error.message : String(error),
      }),
    );
  };
