/**
 * Lines typed at the terminal for the input prompts (input-prompt.ts), through node:readline
 * on stdin in terminal mode (echo and line editing): Ctrl+C rejects with AWF's cancellation,
 * Ctrl+D on an empty line is the end of input. Closed before the run starts, so the terminal
 * is as it was for the steps and for Ctrl+C cancelling the run.
 */
import { createInterface } from "node:readline";
import { inputCancelled, type LineReader } from "./input-prompt";

export const openTerminalReader = (
  input: NodeJS.ReadStream,
  output: NodeJS.WriteStream,
): { read: LineReader; close: () => void } => {
  const rl = createInterface({ input, output, terminal: true });
  let ended = false;
  let pending: { resolve: (line: string | undefined) => void; reject: (e: Error) => void } | null =
    null;
  rl.on("SIGINT", () => {
    output.write("^C\n");
    pending?.reject(inputCancelled(true));
    pending = null;
  });
  rl.on("close", () => {
    ended = true;
    pending?.resolve(undefined);
    pending = null;
  });
  const read: LineReader = (prompt) =>
    ended
      ? Promise.resolve(undefined)
      : new Promise((resolve, reject) => {
          pending = { resolve, reject };
          rl.question(prompt, (line) => {
            pending = null;
            resolve(line);
          });
        });
  return {
    read,
    close: () => {
      rl.close();
      input.pause();
    },
  };
};
