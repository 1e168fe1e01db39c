/**
 * Reads a CLI's stdout as one JSON event per line (as the agent CLIs print with their JSON
 * output flags) as chunks arrive, for every CLI provider's stream parser: each line that is a
 * JSON object with a string `type` goes to `onEvent`; any other line is noise, counted with
 * the last few kept (cut to 500 characters) for a no-result message; a line over the cap is
 * skipped as noise.
 */
import { splitLines } from "./split-lines";

export type JsonEvent = Record<string, unknown> & { type: string };

/** Lines that were not events: how many, and the last few. */
export type StreamNoise = { noiseLines: number; lastNoise: string[] };

export type JsonEventLines = {
  push: (chunk: Buffer | string) => void;
  end: () => void;
  readonly noise: StreamNoise;
};

export type JsonEventLinesOptions = {
  /**
   * A longer line is skipped (counted as noise).
   * @default 16 * 1024 * 1024 (16 MiB)
   */
  maxLineChars?: number;
  /** Where noise is counted (a parser's summary); a fresh one unless told. */
  noise?: StreamNoise;
};

const KEPT = 5;
const NOISE_CHARS = 500;

/** Adds `line` (cut) to `list`, keeping the last few. */
export const keepLast = (list: string[], line: string) => {
  list.push(line.slice(0, NOISE_CHARS));
  if (list.length > KEPT) list.shift();
};

export const jsonEventLines = (
  onEvent: (event: JsonEvent) => void,
  options: JsonEventLinesOptions = {},
): JsonEventLines => {
  const noise = options.noise ?? { noiseLines: 0, lastNoise: [] };
  const stray = (line: string) => {
    noise.noiseLines++;
    keepLast(noise.lastNoise, line);
  };
  const lines = splitLines(
    (raw) => {
      const text = raw.trim();
      if (text === "") return;
      let event: unknown;
      try {
        event = JSON.parse(text);
      } catch {
        return stray(text);
      }
      if (typeof event !== "object" || event === null || Array.isArray(event)) return stray(text);
      if (typeof (event as { type?: unknown }).type !== "string") return stray(text);
      onEvent(event as JsonEvent);
    },
    {
      maxLineChars: options.maxLineChars ?? 16 * 1024 * 1024,
      onOverlong: (start, max) =>
        stray(`${start.slice(0, NOISE_CHARS)}… (a line over ${max} characters, skipped)`),
    },
  );
  return { push: lines.push, end: lines.end, noise };
};
