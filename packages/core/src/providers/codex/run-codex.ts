/**
 * Runs one codex step: runAgentProcess starts Codex with the launch buildCodexLaunch made
 * (its config already written) and stops it on cancel, timeout or lingering; its stdout is
 * parsed into step events as it arrives. The outcome: the turn's answer, or a failure with
 * its code: the failed turn (model rejected or unavailable), a Codex that ended without
 * finishing its turn (EXECUTION.AGENT_NO_RESULT, with the end of its stderr: a proxy that did
 * not start is reported so), the step timeout, or cancelled. The gateway token and the
 * given secrets are scrubbed from every event and result.
 */
import { AppError } from "../../errors/app-error";
import { CODES } from "../../errors/error-codes";
import { Scrubber } from "../../secrets/scrubber";
import { scrubEvent, type AgentStepEvent } from "../agent-events";
import { outcomeFields } from "../agent-outcome";
import type { AgentSpawn } from "../agent-process";
import { endedText, runAgentProcess } from "../run-agent-process";
import type { CliRunResult } from "../step/cli-step";
import { CODEX_TOKEN_ENV, type CodexLaunch } from "./build-codex-launch";
import { codexErrorCode, codexErrorMessage, parseCodexStream } from "./parse-codex-stream";

export type RunCodexInput = {
  launch: CodexLaunch;
  spawn: AgentSpawn;
  signal: AbortSignal;
  timeoutMs?: number;
  onEvent?: (event: AgentStepEvent) => void;
  secrets?: readonly string[];
  stderrTailBytes?: number;
  resultGraceMs?: number;
};

export const runCodex = async (input: RunCodexInput): Promise<CliRunResult> => {
  const { launch } = input;
  const scrubber = new Scrubber().add(launch.env[CODEX_TOKEN_ENV]);
  for (const secret of input.secrets ?? []) scrubber.add(secret);
  const scrub = (text: string) => scrubber.scrub(text);
  const emit = (event: AgentStepEvent) => input.onEvent?.(scrubEvent(event, scrub));
  const parser = parseCodexStream(emit);
  let stderrTail = "";

  const finish = (status: CliRunResult["status"], error?: AppError): CliRunResult => {
    const { summary } = parser;
    const usage = summary.usage;
    if (error && status === "failure" && !summary.result?.isError)
      emit({ type: "error", code: error.code, message: error.message });
    return {
      status,
      output: scrub(summary.text),
      stderrTail: scrub(stderrTail),
      ...(usage
        ? {
            tokensInput: usage.inputTokens,
            tokensOutput: usage.outputTokens,
            tokensUsed: usage.inputTokens + usage.outputTokens,
          }
        : {}),
      ...(summary.sessionId === undefined ? {} : { sessionId: summary.sessionId }),
      ...outcomeFields(status, error, scrub),
    };
  };

  const ran = await runAgentProcess({
    label: "Codex",
    launch,
    spawn: input.spawn,
    signal: input.signal,
    ...(input.timeoutMs === undefined ? {} : { timeoutMs: input.timeoutMs }),
    ...(input.stderrTailBytes === undefined ? {} : { stderrTailBytes: input.stderrTailBytes }),
    ...(input.resultGraceMs === undefined ? {} : { resultGraceMs: input.resultGraceMs }),
    parser,
    hasResult: () => parser.summary.result !== undefined,
    lastNoise: () => [...parser.summary.notices, ...parser.summary.lastNoise],
  });
  stderrTail = ran.stderrTail;
  if (ran.ended !== "result") {
    const proxyDown =
      ran.ended === "failure" &&
      ran.error.code === CODES.AGENT_NO_RESULT &&
      /required MCP servers failed to initialize/.test(ran.stderrTail);
    return finish(
      ran.ended,
      proxyDown ? new AppError(CODES.MCP_PROXY_UNAVAILABLE, ran.error.message) : ran.error,
    );
  }
  const result = parser.summary.result!;
  if (result.isError) {
    const code = codexErrorCode(result.text);
    return finish(
      "failure",
      new AppError(code, codexErrorMessage(result.text), { retryable: code === CODES.MODEL_UNAVAILABLE }),
    );
  }
  if (!ran.stopped && ran.exit.exitCode !== 0)
    return finish(
      "failure",
      new AppError(CODES.AGENT_FAILED, `Codex reported success but ${endedText(ran.exit)}`),
    );
  return finish("success");
};
