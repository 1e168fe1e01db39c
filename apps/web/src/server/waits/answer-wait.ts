/**
 * Answers a wait for both surfaces: the answer, its text scrubbed of the team's secrets,
 * commits with its audit entry (the waits repository decides who may and refuses a second
 * answer), the worker holding a call on the wait is told (it reads the answer at once, not
 * at its next poll), then a run parked on the wait is queued again to resume on any worker,
 * and the run's live views are told. An enqueue that
 * fails leaves the answer standing: the worker's requeue sweep takes the run up.
 */
import type { Queue } from "bullmq";
import type { Keyring } from "@switchyard/core/crypto";
import type { WaitAnswer } from "@switchyard/core/governance";
import { runUpdatesChannel, waitAnsweredChannel, type RunJob } from "@switchyard/core/runs";
import { scrubAnswer } from "./scrub-answer";
import { answerWait, getWait, resumeParkedRun, type Db, type WaitCaller } from "@switchyard/db";

export type AnswerWaitDeps = {
  db: Db;
  keyring: () => Keyring;
  queue: () => Queue<RunJob>;
  prefix: string;
  publish: (channel: string, message: string) => Promise<unknown>;
};

export const answerTeamWait = async (
  deps: AnswerWaitDeps,
  input: { teamId: string; waitId: string; answer: WaitAnswer; caller: WaitCaller },
) => {
  const answer = await scrubAnswer(
    { db: deps.db, keyring: deps.keyring },
    input.teamId,
    input.answer,
  );
  const answered = await answerWait(deps.db, { ...input, answer });
  // A lost message only delays the held call to its next poll.
  await deps.publish(waitAnsweredChannel(deps.prefix), input.waitId).catch(() => 0);
  let resumed = false;
  const runId = answered.wait.runId;
  if (answered.resume && runId !== null) {
    try {
      resumed =
        (await resumeParkedRun(deps.queue(), deps.db, {
          teamId: input.teamId,
          runId,
        })) === "enqueued";
    } catch (error) {
      console.warn(
        "switchyard-web: could not queue a run again after its wait was answered; the requeue sweep will",
        runId,
        error instanceof Error ? error.message : String(error),
      );
    }
  }
  // A console call's form has no run page to tell.
  if (runId !== null) await deps.publish(runUpdatesChannel(deps.prefix), runId).catch(() => 0);
  const wait = await getWait(deps.db, input.teamId, input.caller, input.waitId);
  return { wait: wait!, resumed };
};
