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
import { Scrubber } from "../../secrets/scrubber";
import { scrubEvent, type AgentStepEvent } from "../agent-events";
import { outcomeFields } from "../agent-outcome";
import { endedText, runAgentProcess } from "../run-agent-process";
import type { CliRunInput, CliRunResult } from "../step/cli-step";
import { OPENCODE_TOKEN_ENV } from "./build-opencode-launch";
import { parseOpencodeStream } from "./parse-opencode-stream";

export type RunOpencodeInput = CliRunInput & { stderrTailBytes?: number; resultGraceMs?: number };

const LABEL = "OpenCode";

export const runOpencode = async (input: RunOpencodeInput): Promise<CliRunResult> => {
  const scrubber = new Scrubber().add(input.launch.env[OPENCODE_TOKEN_ENV]);
  for (const secret of input.secrets ?? []) scrubber.add(secret);
  const scrub = (text: string) => scrubber.scrub(text);
  const emit = (event: AgentStepEvent) => input.onEvent?.(scrubEvent(event, scrub));
  const parser = parseOpencodeStream(emit);
  const { summary } = parser;

  const ran = await runAgentProcess({
    ...input,
    label: LABEL,
    parser,
    hasResult: () => summary.result !== undefined,
    lastNoise: () => summary.lastNoise,
  });

  let status: CliRunResult["status"] = "success";
  let error: AppError | undefined;
  if (ran.ended !== "result") {
    status = ran.ended;
    error = ran.error;
    if (status === "failure") emit({ type: "error", code: error.code, message: error.message });
  } else if (summary.result?.isError) {
    const { code, message } = summary.result;
    status = "failure";
    error = new AppError(code, message, { retryable: code === CODES.MODEL_UNAVAILABLE });
  } else if (!ran.stopped && ran.exit.exitCode !== 0) {
    // A CLI stopped for lingering after its answer did its work; any other exit must be clean.
    status = "failure";
    error = new AppError(
      CODES.AGENT_FAILED,
      `${LABEL} reported an answer but ${endedText(ran.exit)}`,
    );
    emit({ type: "error", code: error.code, message: error.message });
  }
  const answer = summary.result && !summary.result.isError ? summary.result.text : summary.text;
  const usage = summary.usage;
  return {
    status,
    output: scrub(answer),
    stderrTail: scrub(ran.stderrTail),
    ...(usage
      ? {
          tokensInput: usage.inputTokens,
          tokensOutput: usage.outputTokens,
          tokensUsed: usage.inputTokens + usage.outputTokens,
        }
      : {}),
    ...(summary.turns > 0 ? { turns: summary.turns } : {}),
    ...(summary.sessionId === undefined ? {} : { sessionId: summary.sessionId }),
    ...(summary.costUsd === undefined ? {} : { costUsd: summary.costUsd }),
    ...(status === "failure" && summary.result?.isError ? { errorReported: true } : {}),
    ...outcomeFields(status, error, scrub),
  };
};
