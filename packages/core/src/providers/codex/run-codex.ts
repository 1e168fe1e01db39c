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
import type { AgentStepEvent } from "../agent-events";
import type { AgentSpawn } from "../agent-process";
import { cliRunResult, scrubbedEvents, type CliRunEnd } from "../cli-run-result";
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
  resultGraceMs?: number;
};

export const runCodex = async (input: RunCodexInput): Promise<CliRunResult> => {
  const { launch, onEvent, secrets = [], ...lifecycle } = input;
  const { scrub, emit } = scrubbedEvents([launch.env[CODEX_TOKEN_ENV], ...secrets], onEvent);
  const parser = parseCodexStream(emit);
  const ran = await runAgentProcess({
    ...lifecycle,
    label: "Codex",
    launch,
    parser,
    hasResult: () => parser.summary.result !== undefined,
    lastNoise: () => [...parser.summary.notices, ...parser.summary.lastNoise],
  });
  const { summary } = parser;
  const finish = (status: CliRunEnd["status"], error?: AppError) =>
    cliRunResult(
      {
        status,
        ...(error ? { error, errorReported: summary.result?.isError === true } : {}),
        output: summary.text,
        stderrTail: ran.stderrTail,
        ...(summary.usage ? { usage: summary.usage } : {}),
        ...(summary.sessionId === undefined ? {} : { sessionId: summary.sessionId }),
      },
      scrub,
      emit,
    );

  if (ran.ended !== "result") {
    // Codex will not start without its required MCP server: that is the proxy failing.
    const proxyDown =
      ran.ended === "failure" &&
      ran.error.code === CODES.AGENT_NO_RESULT &&
      /required MCP servers failed to initialize/.test(ran.stderrTail);
    return finish(
      ran.ended,
      proxyDown ? new AppError(CODES.MCP_PROXY_UNAVAILABLE, ran.error.message) : ran.error,
    );
  }
  const result = summary.result!;
  if (result.isError) {
    const code = codexErrorCode(result.text);
    return finish(
      "failure",
      new AppError(code, codexErrorMessage(result.text), {
        retryable: code === CODES.MODEL_UNAVAILABLE,
      }),
    );
  }
  if (!ran.stopped && ran.exit.exitCode !== 0)
    return finish(
      "failure",
      new AppError(CODES.AGENT_FAILED, `Codex reported success but ${endedText(ran.exit)}`),
    );
  return finish("success");
};
