/** What runs each wait operation (contract/waits.types.ts), on both surfaces. */
import { AppError } from "@switchyard/core/errors";
import { countOpenWaitsFor, getWait, listWaits } from "@switchyard/db";
import { waitOperations } from "../contract/waits.types";
import { implement, type TeamCaller } from "../api/implement";
import { answerTeamWait } from "./answer-wait";

const asker = (caller: TeamCaller) => ({
  userId: caller.userId,
  role: caller.role,
  ...(caller.tokenId ? { tokenId: caller.tokenId } : {}),
});

export const waitsApi = implement(waitOperations, {
  list: ({ db, caller }, input) => listWaits(db, caller.teamId, asker(caller), input ?? {}),
  get: async ({ db, caller }, input) => {
    const wait = await getWait(db, caller.teamId, asker(caller), input.id);
    if (!wait) throw new AppError("NOT_FOUND", "wait not found");
    return wait;
  },
  answer: ({ db, keyring, queue, prefix, publish, caller }, input) =>
    answerTeamWait(
      { db, keyring, queue, prefix, publish },
      {
        teamId: caller.teamId,
        waitId: input.id,
        answer:
          "inputs" in input
            ? { inputs: input.inputs }
            : "action" in input
              ? { action: input.action, ...(input.content ? { content: input.content } : {}) }
              : "decision" in input
                ? { decision: input.decision, ...(input.message ? { message: input.message } : {}) }
                : { message: input.message },
        caller: asker(caller),
      },
    ),
  count: async ({ db, caller }) => ({
    open: await countOpenWaitsFor(db, caller.teamId, asker(caller)),
  }),
});
