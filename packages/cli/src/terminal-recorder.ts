/**
 * The engine's step recorder for `switchyard run`: each step attempt's (scrubbed) output on
 * the terminal as the attempt ends, stdout to stdout and stderr to stderr. Which state and
 * attempt it was, the event lines on stderr say. A conversation that ended well printed its
 * replies as they came, so its output (the last one) is not printed again.
 */
import type { StepRecorder } from "@switchyard/core/workflow";
import type { Io } from "./validate-command";

export const terminalRecorder = (io: Io): StepRecorder => {
  let attempts = 0;
  const print = (write: (text: string) => void, text: string) => {
    if (text) write(text.endsWith("\n") ? text : `${text}\n`);
  };
  return {
    attemptStarted: async () => ({ id: String(++attempts) }),
    attemptFinished: async (_attempt, end) => {
      // A conversation printed each reply as it came (local-chat.ts): its output is the last.
      if (end.conversation?.stopped_by !== "user_exit") print(io.out, end.stdout);
      print(io.err, end.stderr);
    },
  };
};
