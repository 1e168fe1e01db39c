/**
 * A person's text in a wait's answer (a conversation's message, a denial's reason, a
 * connector form's values) scrubbed
 * of the team's secret values before it is stored, as the worker scrubs what a step records:
 * a key pasted into the chat is `[REDACTED]` in the wait, on the run's page and in the
 * agent's next turn. Every secret of the team counts, whatever its lanes.
 */
import { openVariable, type Keyring } from "@switchyard/core/crypto";
import type { WaitAnswer } from "@switchyard/core/governance";
import { Scrubber } from "@switchyard/core/secrets";
import { teamSecretEnvelopes, type Db } from "@switchyard/db";

/** `keyring` is asked for only when the team has a secret to open. */
type ScrubAnswerDeps = { db: Db; keyring: () => Keyring };

export const scrubAnswer = async (
  { db, keyring }: ScrubAnswerDeps,
  teamId: string,
  answer: WaitAnswer,
): Promise<WaitAnswer> => {
  const hasText =
    ("message" in answer && answer.message) || ("content" in answer && answer.content);
  if (!hasText) return answer;
  const secrets = await teamSecretEnvelopes(db, teamId);
  if (secrets.length === 0) return answer;
  const scrubber = new Scrubber();
  const keys = keyring();
  for (const { name, sealed } of secrets) {
    try {
      scrubber.add(
        openVariable(keys, { teamId, credentialId: sealed.credentialId, name }, sealed.envelope),
      );
    } catch {
      // A secret that does not open (a key rotated away) holds no value a run could use.
    }
  }
  if ("content" in answer && answer.content)
    return { ...answer, content: scrubber.scrubValue(answer.content) };
  return "message" in answer && answer.message
    ? { ...answer, message: scrubber.scrub(answer.message) }
    : answer;
};
