/**
 * Governance of an agent attempt in the worker (docs/governance.md): which of its tool calls
 * wait for a person's approval, the hold, and the suspension.
 *
 * The step's rules are its lane's followed by its own (`mcp_proxy.approve`). Every connector
 * call, and each built-in a rule can match, is allowed first by `beforeCall`: a call under a
 * rule opens a Wait (its arguments scrubbed, bound to the SHA-256 of their RFC 8785 form) and
 * is held open while the wait is read; an approval lets exactly that call run, a denial
 * refuses it with USER.APPROVAL.DENIED and the person's message, which the agent gets as the
 * tool's error. Past the hold limit the attempt is suspended: `suspend` aborts, the provider
 * stops and returns where it stood, and `park` stores that (sealed) with the workspace
 * snapshot and parks the run on the wait (RunParked). The attempt that resumes it later
 * takes the session once: the held call is then allowed or refused by the wait's answer,
 * without a second wait.
 */
import { sealSecret, openSecret, type Envelope, type Keyring } from "@switchyard/core/crypto";
import { AppError } from "@switchyard/core/errors";
import {
  approvalRuleFor,
  argumentsHash,
  DEFAULT_APPROVAL_EXPIRY_MS,
  describeRule,
  globMatches,
  RunParked,
  stepApprovalRules,
  type SourcedRule,
  type ToolCallWaitDetail,
  type DecisionAnswer,
} from "@switchyard/core/governance";
import { capValue } from "@switchyard/core/mcp";
import {
  withSpentBefore,
  type AttemptGovernance,
  type SpentBefore,
  type SuspendedState,
} from "@switchyard/core/providers";
import type { Scrubber } from "@switchyard/core/secrets";
import type { AgentRequest, AgentResult } from "@switchyard/core/workflow";
import {
  cancelWait,
  openToolCallWait,
  parkRunOnWait,
  readWaitState,
  removeAgentSession,
  resumableSessionOf,
  saveAgentSession,
  saveWorkspaceSnapshot,
  unparkedSessionWaitOf,
  type Db,
} from "@switchyard/db";
import type { Logger } from "./logger";
import { wakeableSleep, type WaitWakers } from "./wait-wakers";

const BUILTINS = ["Read", "Write", "Edit", "Bash", "Glob", "Grep"] as const;
/** How often a held call reads its wait when no answer is announced (SWITCHYARD_WAIT_POLL_MS). */
export const WAIT_POLL_MS = 1000;
/** The most of the agent's text a person is shown with a held call. */
const AGENT_TEXT_CHARS = 4000;

export type GovernanceDeps = {
  db: Db;
  log: Logger;
  keyring: Keyring;
  teamId: string;
  runId: string;
  lane: string;
  workerId: string;
  scrubber: Scrubber;
  /** The lane's rules (Settings → Lanes), as stored. */
  laneRules: () => Promise<readonly unknown[]>;
  /** How long a held call stays open before its attempt is suspended. */
  holdMs: number;
  /** The workspace the snapshot of a suspended attempt is taken of, with its limits. */
  workspace: string;
  snapshotLimits: { maxBytes: number; teamBytes: number } | undefined;
  /** A wait opened (for notifications and the live views). */
  onWaitOpened: (waitId: string) => void;
  /** Wakes a held call when its wait is announced answered; without it the call only polls. */
  waitWakers?: WaitWakers;
  /**
   * How often a held call reads its wait anyway (a lost announcement).
   * @default WAIT_POLL_MS
   */
  pollMs?: number;
};

type HeldCall = { tool: string; source: string; arguments: Record<string, unknown>; hash: string };

/** One attempt's governance: the port for the executor, and what the worker does after it. */
export type AttemptHandle = {
  governance: AttemptGovernance | undefined;
  /** What the agent says, for the person asked (the end of it). */
  noteText: (text: string) => void;
  /** After the attempt: a suspended result parks the run (throws RunParked); anything else passes. */
  settle: (result: AgentResult) => Promise<AgentResult>;
  /** It continues a suspended attempt (whose start is recorded already). */
  resumed: boolean;
};

export const sessionOwner = (teamId: string, runId: string, stepKey: string) => ({
  teamId,
  credentialId: runId,
  name: `agent-session:${stepKey}`,
});

export const serialise = (envelope: Envelope) =>
  Buffer.from(
    JSON.stringify({
      keyId: envelope.keyId,
      wrappedKey: envelope.wrappedKey.toString("base64"),
      ciphertext: envelope.ciphertext.toString("base64"),
      iv: envelope.iv.toString("base64"),
      authTag: envelope.authTag.toString("base64"),
    }),
  );

export const deserialise = (bytes: Uint8Array): Envelope => {
  const raw = JSON.parse(Buffer.from(bytes).toString("utf8")) as Record<string, string>;
  return {
    keyId: raw.keyId!,
    wrappedKey: Buffer.from(raw.wrappedKey!, "base64"),
    ciphertext: Buffer.from(raw.ciphertext!, "base64"),
    iv: Buffer.from(raw.iv!, "base64"),
    authTag: Buffer.from(raw.authTag!, "base64"),
  };
};

/** A step's session sealed for the run (stored in AgentSession.sealed). */
export const sealSession = (
  keyring: Keyring,
  at: { teamId: string; runId: string; stepKey: string },
  value: unknown,
) =>
  serialise(
    sealSecret(keyring, sessionOwner(at.teamId, at.runId, at.stepKey), JSON.stringify(value)),
  );

/** A sealed session opened again. */
export const openSession = (
  keyring: Keyring,
  at: { teamId: string; runId: string; stepKey: string },
  sealed: Uint8Array,
): unknown =>
  JSON.parse(
    openSecret(keyring, sessionOwner(at.teamId, at.runId, at.stepKey), deserialise(sealed)),
  );

/**
 * The workspace kept as a snapshot for a step that stops to wait (a suspension, a
 * conversation between turns); undefined where snapshots are off. Not kept: the step fails.
 */
export const keepWorkspace = async (
  deps: Pick<GovernanceDeps, "db" | "teamId" | "runId" | "workspace" | "snapshotLimits">,
  why: string,
) => {
  if (!deps.snapshotLimits) return undefined;
  const snapshot = await saveWorkspaceSnapshot(deps.db, {
    teamId: deps.teamId,
    runId: deps.runId,
    dir: deps.workspace,
    limits: {
      maxFileBytes: deps.snapshotLimits.maxBytes,
      maxTotalBytes: deps.snapshotLimits.maxBytes,
      teamBytes: deps.snapshotLimits.teamBytes,
    },
  });
  if (!snapshot.kept)
    throw new AppError(
      "EXECUTION.AGENT_CANNOT_RESUME",
      `${why}: its workspace was not kept (${snapshot.reason})`,
    );
  return snapshot;
};

/** Sleeps `ms`, or less: until the signal aborts or `listen`'s wake is called. */
/** The refusal an answer (or expiry) gives the held call, or undefined when it may run. */
const refusalOf = (status: string, answer: unknown): AppError | undefined => {
  const given = (answer ?? {}) as Partial<DecisionAnswer> & { decision?: string };
  if (status === "answered" && given.decision === "approve") return undefined;
  if (status === "expired" && given.decision === "approve") return undefined;
  if (status === "expired")
    return new AppError(
      "USER.APPROVAL.EXPIRED",
      given.message ?? "nobody answered the approval in time; the call was not run",
    );
  if (status === "cancelled")
    return new AppError("USER.APPROVAL.DENIED", "the approval was withdrawn; the call was not run");
  return new AppError(
    "USER.APPROVAL.DENIED",
    given.message ? `a person denied this call: ${given.message}` : "a person denied this call",
  );
};

export const createGovernance = (deps: GovernanceDeps) => {
  const forAttempt = async (request: AgentRequest): Promise<AttemptHandle> => {
    const stepKey = request.path.key;
    // The lane's rules as they are now (they may have changed since the workflow was saved).
    const ruled = stepApprovalRules(await deps.laneRules(), {
      name: request.stateName,
      ...(request.mcpProxy ? { mcpProxy: request.mcpProxy } : {}),
    });
    if ("error" in ruled) throw ruled.error;
    const rules: SourcedRule[] = ruled.rules;
    // Suspended, but the worker stopped before the run was parked: it parks now, on the same wait.
    const unparked = await unparkedSessionWaitOf(deps.db, deps.teamId, deps.runId, stepKey);
    if (unparked) throw new RunParked(unparked);
    const found = await resumableSessionOf(deps.db, deps.teamId, deps.runId, stepKey);
    // A conversation's session between turns is the conversation's (conversation-turns.ts).
    const resumable = found?.wait.kind === "tool_call" ? found : undefined;
    let agentText = "";
    const noteText = (text: string) => {
      agentText = (agentText + text).slice(-AGENT_TEXT_CHARS);
    };
    // The held call the resumed attempt was parked on: its answer holds for that call (the
    // same tool, the same arguments) once, whatever the rules say now.
    const answered = new Map<string, AppError | undefined>();
    const answerKey = (tool: string, hash: string) => `${tool}\u0000${hash}`;
    let heldTool: string | undefined;
    let resume: (SuspendedState & { spent?: SpentBefore }) | undefined;
    if (resumable) {
      const { session, wait } = resumable;
      heldTool = (session.pendingCall as { tool?: string } | null)?.tool;
      if (wait.argumentsHash && heldTool)
        answered.set(answerKey(heldTool, wait.argumentsHash), refusalOf(wait.status, wait.answer));
      resume = JSON.parse(
        openSecret(
          deps.keyring,
          sessionOwner(deps.teamId, deps.runId, stepKey),
          deserialise(session.sealed),
        ),
      ) as SuspendedState & { spent?: SpentBefore };
      await removeAgentSession(deps.db, deps.teamId, session.id);
      deps.log.info("resuming a suspended agent step", {
        runId: deps.runId,
        state: request.stateName,
        waitId: wait.id,
        answer: wait.status,
      });
    }
    const spentBefore = resume?.spent;
    if (rules.length === 0 && !resume)
      return {
        governance: undefined,
        noteText,
        settle: (result) => Promise.resolve(result),
        resumed: false,
      };

    const suspend = new AbortController();
    let parkedOn: { waitId: string; call: HeldCall } | undefined;

    const hold = async (call: HeldCall, rule: SourcedRule, signal: AbortSignal) => {
      const detail: ToolCallWaitDetail = {
        tool: call.tool,
        source: call.source,
        arguments: capValue(deps.scrubber.scrubValue(call.arguments)),
        argumentsHash: call.hash,
        rule: describeRule(rule),
        ruleOrigin: rule.origin,
        agentText: deps.scrubber.scrub(agentText),
        state: request.stateName,
        provider: request.provider,
      };
      const waitId = await openToolCallWait(deps.db, {
        teamId: deps.teamId,
        runId: deps.runId,
        stepRunId: request.attemptId,
        question: `Allow ${request.stateName} to call ${call.tool}?`,
        detail: detail as never,
        argumentsHash: call.hash,
        lane: deps.lane,
        ...(rule.min_role ? { minRole: rule.min_role } : {}),
        ...(rule.not_starter ? { notStarter: true } : {}),
        expiresAt: new Date(Date.now() + DEFAULT_APPROVAL_EXPIRY_MS),
        onExpiry: "deny",
      });
      // Listening before the first read: an answer announced in between still wakes the hold.
      const waking = wakeableSleep(deps.waitWakers, waitId);
      try {
        deps.onWaitOpened(waitId);
        await heldUntilAnswered(waitId, call, signal, waking.sleep);
      } finally {
        waking.close();
      }
    };

    const heldUntilAnswered = async (
      waitId: string,
      call: HeldCall,
      signal: AbortSignal,
      sleep: (ms: number, signal: AbortSignal) => Promise<void>,
    ) => {
      const pollMs = deps.pollMs ?? WAIT_POLL_MS;
      const until = Date.now() + deps.holdMs;
      for (;;) {
        const state = await readWaitState(deps.db, deps.teamId, waitId);
        if (state && state.status !== "open") {
          const refusal = refusalOf(state.status, state.answer);
          if (refusal) throw refusal;
          return;
        }
        if (signal.aborted) {
          // Given up (the step stopped, timed out, or a sibling parked the run): nobody is
          // asked about a call that will not run.
          await cancelWait(deps.db, deps.teamId, waitId);
          throw new AppError("EXECUTION.CANCELLED", "the call was cancelled");
        }
        if (Date.now() >= until) break;
        await sleep(Math.min(pollMs, until - Date.now()), signal);
      }
      // Past the hold limit: the attempt stops and keeps its session; the call stays held.
      // One call is what the step is suspended on; another held past the limit meanwhile is
      // given up with the attempt (its wait cancelled), and asked again after the resume.
      if (parkedOn) {
        await cancelWait(deps.db, deps.teamId, waitId);
        throw new AppError("EXECUTION.CANCELLED", "the step was suspended on another call");
      }
      parkedOn = { waitId, call };
      suspend.abort();
      await new Promise<void>((resolve) => {
        if (signal.aborted) resolve();
        else signal.addEventListener("abort", () => resolve(), { once: true });
      });
      throw new AppError("EXECUTION.CANCELLED", "the step was suspended while this call waited");
    };

    const beforeCall = async (
      call: { tool: string; source: string; arguments: Record<string, unknown> },
      signal: AbortSignal,
    ) => {
      if (answered.size > 0) {
        const key = answerKey(call.tool, argumentsHash(call.arguments));
        if (answered.has(key)) {
          const refusal = answered.get(key);
          answered.delete(key);
          if (refusal) throw refusal;
          return;
        }
      }
      const rule = approvalRuleFor(rules, call);
      if (!rule) return;
      await hold({ ...call, hash: argumentsHash(call.arguments) }, rule, signal);
    };

    // The built-ins a rule can match, and the held one a resume decides.
    const builtins = BUILTINS.filter(
      (name) => name === heldTool || rules.some((rule) => globMatches(rule.tool, name)),
    );
    const governance: AttemptGovernance = {
      gate: { beforeCall, builtins },
      suspend: suspend.signal,
      holdMs: deps.holdMs,
      ...(resume ? { resume } : {}),
    };

    const settle = async (whole: AgentResult): Promise<AgentResult> => {
      const result = withSpentBefore(whole, spentBefore);
      if (!result.suspended) return result;
      if (!parkedOn)
        throw new AppError("SYSTEM.INTERNAL", "an attempt was suspended without a held call");
      const { waitId, call } = parkedOn;
      const snapshot = await keepWorkspace(deps, "the step could not be suspended");
      // A CLI's session goes on from the held call's outcome, which it is given as its next
      // turn: the call is kept with the session (openai_compatible keeps it in its own).
      const kept: SuspendedState =
        result.suspended.kind === "cli"
          ? {
              ...result.suspended,
              state: {
                ...(result.suspended.state as object),
                pending: { tool: call.tool, arguments: call.arguments },
              },
            }
          : result.suspended;
      // openai_compatible's conversation counts its tokens itself; a CLI's part after the
      // resume counts only its own.
      const spent: SpentBefore | undefined =
        result.suspended.kind !== "cli"
          ? undefined
          : {
              ...(result.tokensInput === undefined ? {} : { tokensInput: result.tokensInput }),
              ...(result.tokensOutput === undefined ? {} : { tokensOutput: result.tokensOutput }),
              ...(result.costUsd === undefined ? {} : { costUsd: result.costUsd }),
            };
      const sealed = sealSecret(
        deps.keyring,
        sessionOwner(deps.teamId, deps.runId, stepKey),
        JSON.stringify(spent ? { ...kept, spent } : kept),
      );
      await saveAgentSession(deps.db, {
        teamId: deps.teamId,
        runId: deps.runId,
        stepKey,
        stepRunId: request.attemptId,
        provider: request.provider,
        ...(result.suspended.sessionId ? { sessionId: result.suspended.sessionId } : {}),
        sealed: serialise(sealed),
        ...(snapshot?.kept ? { snapshotId: snapshot.snapshotId } : {}),
        waitId,
        pendingCall: {
          tool: call.tool,
          source: call.source,
          arguments: capValue(deps.scrubber.scrubValue(call.arguments)) as never,
          argumentsHash: call.hash,
        },
      });
      throw new RunParked(waitId);
    };

    return { governance, noteText, settle, resumed: resume !== undefined };
  };

  /**
   * Parks the run on `waitId` once its attempt is suspended. False when the wait was answered
   * meanwhile: the run then goes on at once (its job runs it again from the checkpoint).
   */
  const park = (waitId: string) =>
    parkRunOnWait(deps.db, {
      teamId: deps.teamId,
      runId: deps.runId,
      waitId,
      workerId: deps.workerId,
    });

  return { forAttempt, park };
};
