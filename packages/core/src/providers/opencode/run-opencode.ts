/**
 * Runs one opencode step: OpenCode started through the spawn port with the launch that
 * buildOpencodeLaunch made (its files already written) by runAgentProcess, its JSON events
 * parsed into step events. The outcome: the answer of the model request that ended the run,
 * or a failure: the model request failed (rejected or unavailable), OpenCode ended without
 * an answer (EXECUTION.AGENT_NO_RESULT, with the end of its stderr), the step timeout, or
 * cancelled. The gateway token and the given secrets are scrubbed from every event and result.
 */
import { AppError } from "../../errors/app-error";
import { CODES } from "../../errors/error-codes";
import { cliRunResult, scrubbedEvents, type CliRunEnd } from "../cli-run-result";
import { endedText, runAgentProcess } from "../run-agent-process";
import type { CliRunInput, CliRunResult } from "../step/cli-step";
import { OPENCODE_TOKEN_ENV } from "./build-opencode-launch";
import { parseOpencodeStream } from "./parse-opencode-stream";

export type RunOpencodeInput = CliRunInput & { stderrTailBytes?: number; resultGraceMs?: number };

const LABEL = "OpenCode";

export const runOpencode = async (input: RunOpencodeInput): Promise<CliRunResult> => {
  const { scrub, emit } = scrubbedEvents(
    [input.launch.env[OPENCODE_TOKEN_ENV], ...(input.secrets ?? [])],
    input.onEvent,
  );
  const parser = parseOpencodeStream(emit);
  const { summary } = parser;

  const ran = await runAgentProcess({
    ...input,
    label: LABEL,
    parser,
    hasResult: () => summary.result !== undefined,
    lastNoise: () => summary.lastNoise,
  });

  const finish = (status: CliRunEnd["status"], error?: AppError): CliRunResult =>
    cliRunResult(
      {
        status,
        ...(error ? { error, errorReported: summary.result?.isError === true } : {}),
        output: summary.result && !summary.result.isError ? summary.result.text : summary.text,
        stderrTail: ran.stderrTail,
        ...(summary.usage ? { usage: summary.usage } : {}),
        ...(summary.turns > 0 ? { turns: summary.turns } : {}),
        ...(summary.sessionId === undefined ? {} : { sessionId: summary.sessionId }),
        ...(summary.costUsd === undefined ? {} : { costUsd: summary.costUsd }),
      },
      scrub,
      emit,
    );

  if (ran.ended !== "result") return finish(ran.ended, ran.error);
  if (summary.result?.isError) {
    const { code, message } = summary.result;
    return finish(
      "failure",
      new AppError(code, message, { retryable: code === CODES.MODEL_UNAVAILABLE }),
    );
  }
  // A CLI stopped for lingering after its answer did its work; any other exit must be clean.
  if (!ran.stopped && ran.exit.exitCode !== 0)
    return finish(
      "failure",
      new AppError(CODES.AGENT_FAILED, `${LABEL} reported an answer but ${endedText(ran.exit)}`),
    );
  return finish("success");
};
