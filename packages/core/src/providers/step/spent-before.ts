/**
 * What an agent attempt spent across its parts: a suspended attempt and the one resuming it,
 * or the turns of a conversation. openai_compatible's message history counts its tokens
 * itself; a CLI's part counts only its own, so the parts before it are added.
 */
import type { AgentResult } from "../../workflow/model/engine-ports";

/** What the parts of an attempt before this one spent. */
export type SpentBefore = { tokensInput?: number; tokensOutput?: number; costUsd?: number };

const add = (a: number | undefined, b: number | undefined) =>
  a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0);

/** What a result spent, to carry to the next part. */
export const spentOf = (result: AgentResult): SpentBefore => ({
  ...(result.tokensInput === undefined ? {} : { tokensInput: result.tokensInput }),
  ...(result.tokensOutput === undefined ? {} : { tokensOutput: result.tokensOutput }),
  ...(result.costUsd === undefined ? {} : { costUsd: result.costUsd }),
});

/** The whole attempt's tokens and cost: the parts before and this one. */
export const withSpentBefore = (
  result: AgentResult,
  before: SpentBefore | undefined,
): AgentResult => {
  if (!before) return result;
  const tokensInput = add(result.tokensInput, before.tokensInput);
  const tokensOutput = add(result.tokensOutput, before.tokensOutput);
  const costUsd = add(result.costUsd, before.costUsd);
  return {
    ...result,
    ...(tokensInput === undefined ? {} : { tokensInput }),
    ...(tokensOutput === undefined ? {} : { tokensOutput }),
    ...(tokensInput === undefined && tokensOutput === undefined
      ? {}
      : { tokensUsed: (tokensInput ?? 0) + (tokensOutput ?? 0) }),
    ...(costUsd === undefined ? {} : { costUsd }),
  };
};
