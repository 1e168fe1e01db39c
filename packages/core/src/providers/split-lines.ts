/**
 * Splits a CLI's stdout into lines as chunks arrive, for the providers that read a JSON
 * event per line. Chunks may cut a line or a UTF-8 character anywhere; a line longer than
 * the cap is dropped whole (reported once, by its start) so a runaway line never grows a
 * buffer without bound; the text after the last newline counts as a line at the end.
 */
import { StringDecoder } from "node:string_decoder";

export type SplitLinesOptions = {
  maxLineChars: number;
  onOverlong: (start: string, maxLineChars: number) => void;
};

export type LineSplitter = { push: (chunk: Buffer | string) => void; end: () => void };

export const splitLines = (
  onLine: (line: string) => void,
  options: SplitLinesOptions,
): LineSplitter => {
  const max = options.maxLineChars;
  const decoder = new StringDecoder("utf8");
  let buffered = "";
  let skipping = false;

  const take = (text: string) => {
    let rest = text;
    for (;;) {
      const newline = rest.indexOf("\n");
      if (newline < 0) break;
      const piece = rest.slice(0, newline);
      rest = rest.slice(newline + 1);
      if (skipping) skipping = false;
      else if (buffered.length + piece.length > max) options.onOverlong(buffered + piece, max);
      else onLine(buffered + piece);
      buffered = "";
    }
    if (skipping) return;
    buffered += rest;
    if (buffered.length > max) {
      options.onOverlong(buffered, max);
      buffered = "";
      skipping = true;
    }
  };

  return {
    push: (chunk) => take(typeof chunk === "string" ? chunk : decoder.write(chunk)),
    end: () => {
      take(decoder.end());
      if (!skipping && buffered !== "") onLine(buffered);
      buffered = "";
      skipping = false;
    },
  };
};
