/**
 * Runs one gemini step: Gemini CLI started by runAgentProcess with buildGeminiLaunch's
 * launch (files already written), its stream-json stdout parsed into step events as it
 * arrives. The outcome is the `result` event: the answer, or the model's or the CLI's error
 * with its code (a model request refused, the model unavailable, the turn limit); the
 * process side (could not start, no result, timeout, cancel, lingering) is
 * runAgentProcess's. The gateway token and the step's secrets are scrubbed from every event
 * and the result.
 */
import { AppError } from "../../errors/app-error";
import { CODES } from "../../errors/error-codes";
import { cliRunResult, scrubbedEvents, type CliRunEnd } from "../cli-run-result";
import { endedText, runAgentProcess } from "../run-agent-process";
import type { CliRunInput, CliRunResult } from "../step/cli-step";
import { geminiResultCode, geminiResultMessage, parseGeminiStream } from "./parse-gemini-stream";

export type RunGeminiInput = CliRunInput & {
  /** How long the CLI may stay after its result before it is stopped; 10 s unless told. */
  resultGraceMs?: number;
};

const LABEL = "Gemini CLI";

export const runGemini = async (input: RunGeminiInput): Promise<CliRunResult> => {
  const { launch } = input;
  const { scrub, emit } = scrubbedEvents(
    [launch.env.GEMINI_API_KEY, ...(input.secrets ?? [])],
    input.onEvent,
  );
  const parser = parseGeminiStream(emit);

  const ran = await runAgentProcess({
    label: LABEL,
    launch,
    spawn: input.spawn,
    signal: input.signal,
    ...(input.timeoutMs === undefined ? {} : { timeoutMs: input.timeoutMs }),
    ...(input.resultGraceMs === undefined ? {} : { resultGraceMs: input.resultGraceMs }),
    parser,
    hasResult: () => parser.summary.result !== undefined,
    // Warnings the CLI put on stdout say more than its stray lines.
    lastNoise: () => [...parser.summary.warnings, ...parser.summary.lastNoise],
  });

  const outcome = (
    status: CliRunEnd["status"],
    error?: AppError,
    reported = false,
  ): CliRunResult => {
    const { summary } = parser;
    const usage = summary.usage;
    const counted = usage !== undefined && usage.inputTokens + usage.outputTokens > 0;
    return cliRunResult(
      {
        status,
        // The CLI's error result carries no event of its own: it is always told as one here.
        ...(error ? { error, errorReported: reported, errorInStream: false } : {}),
        output: summary.answer,
        stderrTail: ran.stderrTail,
        ...(counted ? { usage } : {}),
        ...(summary.sessionId === undefined ? {} : { sessionId: summary.sessionId }),
      },
      scrub,
      emit,
    );
  };

  if (ran.ended !== "result") return outcome(ran.ended, ran.error);
  const result = parser.summary.result!;
  if (!result.ok) {
    const code = geminiResultCode(result);
    return outcome(
      "failure",
      new AppError(code, geminiResultMessage(result), {
        retryable: code === CODES.MODEL_UNAVAILABLE,
      }),
      true,
    );
  }
  // A CLI stopped for lingering after its answer did its work; any other exit must be clean.
  if (!ran.stopped && ran.exit.exitCode !== 0)
    return outcome(
      "failure",
      new AppError(CODES.AGENT_FAILED, `${LABEL} reported success but ${endedText(ran.exit)}`),
    );
  return outcome("success");
};
