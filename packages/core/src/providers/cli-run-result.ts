/**
 * What a CLI provider's run hands back, built one way: its events and result scrubbed of
 * the gateway token and the step's secrets, the error it failed with reported as an event
 * (unless the CLI's own output already reported it), tokens as the CLI counted them, its
 * session, and the outcome fields every provider shares.
 */
import type { AppError } from "../errors/app-error";
import { Scrubber } from "../secrets/scrubber";
import { scrubEvent, type AgentStepEvent } from "./agent-events";
import { outcomeFields, type AgentStepStatus } from "./agent-outcome";
import type { CliRunResult } from "./step/cli-step";

/** A scrub for the given values and an emitter that passes every event through it. */
export const scrubbedEvents = (
  values: readonly (string | undefined)[],
  onEvent: ((event: AgentStepEvent) => void) | undefined,
) => {
  const scrubber = new Scrubber();
  for (const value of values) if (value) scrubber.add(value);
  const scrub = (text: string) => scrubber.scrub(text);
  return { scrub, emit: (event: AgentStepEvent) => onEvent?.(scrubEvent(event, scrub)) };
};

export type CliRunEnd = {
  status: AgentStepStatus;
  error?: AppError;
  /** The error is the CLI's own report (its error result), not the way its process ended. */
  errorReported?: boolean;
  /** The CLI's output already carried the error as an event; as errorReported unless told. */
  errorInStream?: boolean;
  output: string;
  stderrTail: string;
  usage?: { inputTokens: number; outputTokens: number };
  /** Model turns, as the CLI counted them. */
  turns?: number;
  sessionId?: string;
  /** The CLI's own cost estimate at list prices (the gateway meters the real one). */
  costUsd?: number;
};

export const cliRunResult = (
  end: CliRunEnd,
  scrub: (text: string) => string,
  emit: (event: AgentStepEvent) => void,
): CliRunResult => {
  const { error, usage } = end;
  if (error && end.status === "failure" && !(end.errorInStream ?? end.errorReported))
    emit({ type: "error", code: error.code, message: error.message });
  return {
    status: end.status,
    output: scrub(end.output),
    stderrTail: scrub(end.stderrTail),
    ...(usage
      ? {
          tokensInput: usage.inputTokens,
          tokensOutput: usage.outputTokens,
          tokensUsed: usage.inputTokens + usage.outputTokens,
        }
      : {}),
    ...(end.turns === undefined ? {} : { turns: end.turns }),
    ...(end.sessionId === undefined ? {} : { sessionId: end.sessionId }),
    ...(end.costUsd === undefined ? {} : { costUsd: end.costUsd }),
    ...(error && end.status === "failure" && end.errorReported ? { errorReported: true } : {}),
    ...outcomeFields(end.status, error, scrub),
  };
};
