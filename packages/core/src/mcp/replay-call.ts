/**
 * A routed tools/call of a replayed attempt: the step channel answers it from the recording
 * (the worker holds the recordings); nothing runs, unless the worker says `live` for a
 * built-in with no recording left and this proxy's config allows it (`live_builtins`).
 * Connector tools never run live. Each answer says how it came (the record's `replay`).
 */
import {
  toolError,
  ToolFailure,
  type JsonObject,
  type RoutedTool,
  type ToolResult,
} from "../tools";
import type { ReplayMark } from "./call-record";
import type { ChannelAnswer } from "./step-channel-client";

export type ProxyReplay = {
  unmatched: "error" | "live_builtins";
  /** The step channel's answer to a call: the recorded result, or `live`. */
  ask: (tool: string, args: JsonObject, signal: AbortSignal) => Promise<ChannelAnswer>;
};

type Answered = { result: ToolResult; errorType: string | null };

/** A failed tool as the agent sees it: `[code] message` (or `cancelled`), its code the error type. */
export const failedTool = (error: ToolFailure): Answered => ({
  result: toolError(error.code === "cancelled" ? "cancelled" : `[${error.code}] ${error.message}`),
  errorType: error.code,
});

const answered = (result: ToolResult): Answered => ({
  result,
  errorType: result.isError ? "tool_error" : null,
});

/** Answers `tool` from the recording, or runs it live (`runLive`) where the replay allows it. */
export const replayCall = async (
  replay: ProxyReplay,
  tool: Pick<RoutedTool, "name" | "source">,
  args: JsonObject,
  signal: AbortSignal,
  runLive: () => Promise<ToolResult>,
): Promise<Answered & { replay: ReplayMark }> => {
  let answer: ChannelAnswer;
  try {
    answer = await replay.ask(tool.name, args, signal);
  } catch (error) {
    if (error instanceof ToolFailure) return { ...failedTool(error), replay: "unmatched" };
    throw error;
  }
  if (answer.kind === "result") return { ...answered(answer.result), replay: "recorded" };
  if (tool.source !== "builtin" || replay.unmatched !== "live_builtins")
    return {
      ...failedTool(
        new ToolFailure(
          "USER.REPLAY.NO_RECORDING",
          `${tool.name} has no recording left with these arguments, and this replay runs nothing live`,
        ),
      ),
      replay: "unmatched",
    };
  try {
    return { ...answered(await runLive()), replay: "live" };
  } catch (error) {
    if (error instanceof ToolFailure) return { ...failedTool(error), replay: "live" };
    throw error;
  }
};
