/**
 * Where a `mode: conversation` step of `switchyard run` reads the person's next message, as
 * AWF reads it: after a `> ` prompt, one line from stdin. At a terminal each message is read
 * through terminal-reader.ts (echo and line editing; the terminal is as it was between the
 * messages, for the steps and Ctrl+C), and Ctrl+C there cancels the run as it does anywhere
 * else. Piped stdin gives its lines in turn; its end (or Ctrl+D) is no message, which ends
 * the conversation.
 */
import { createInterface, type Interface } from "node:readline";
import { openTerminalReader } from "./terminal-reader";

/** The person's next message, or undefined at the end of input, on cancel or when `signal` ends the wait. */
export type ChatInput = {
  read(prompt: string, signal: AbortSignal): Promise<string | undefined>;
  close(): void;
};

const untilAborted = (signal: AbortSignal) =>
  new Promise<undefined>((resolve) => {
    if (signal.aborted) resolve(undefined);
    signal.addEventListener("abort", () => resolve(undefined), { once: true });
  });

/** At a terminal: one reader for each message, so the terminal is left alone while agents run. */
const terminalInput = (
  input: NodeJS.ReadStream,
  output: NodeJS.WriteStream,
  onCancel: () => void,
): ChatInput => ({
  read: async (prompt, signal) => {
    const reader = openTerminalReader(input, output);
    try {
      return await Promise.race([
        reader.read(prompt).catch(() => {
          onCancel();
          return undefined;
        }),
        untilAborted(signal),
      ]);
    } finally {
      reader.close();
    }
  },
  close: () => undefined,
});

/** From a pipe: its lines in order, read as they come, for the whole run. */
const pipedInput = (input: NodeJS.ReadStream, write: (text: string) => void): ChatInput => {
  let rl: Interface | undefined;
  const lines: string[] = [];
  let ended = false;
  let waiting: ((line: string | undefined) => void) | undefined;
  const open = () => {
    rl = createInterface({ input, terminal: false });
    rl.on("line", (line) => {
      if (waiting) {
        const give = waiting;
        waiting = undefined;
        give(line);
      } else lines.push(line);
    });
    rl.on("close", () => {
      ended = true;
      waiting?.(undefined);
      waiting = undefined;
    });
  };
  return {
    read: (prompt, signal) => {
      if (!rl) open();
      write(prompt);
      if (lines.length > 0) return Promise.resolve(lines.shift());
      if (ended) return Promise.resolve(undefined);
      return Promise.race([
        new Promise<string | undefined>((resolve) => (waiting = resolve)),
        untilAborted(signal).then(() => {
          waiting = undefined;
          return undefined;
        }),
      ]);
    },
    close: () => {
      if (!rl) return;
      rl.close();
      input.pause();
    },
  };
};

export const openChatInput = (
  input: NodeJS.ReadStream,
  output: NodeJS.WriteStream,
  onCancel: () => void,
): ChatInput =>
  input.isTTY
    ? terminalInput(input, output, onCancel)
    : pipedInput(input, (text) => output.write(text));
