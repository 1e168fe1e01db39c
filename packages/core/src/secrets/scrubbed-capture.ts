/**
 * Collects one output stream of a process as scrubbed text of at most `capBytes` bytes. The
 * chunks are decoded (a character split between chunks stays whole) and scrubbed as they
 * arrive, so what is kept never holds a secret, whole, split across chunks, or cut in part by
 * the cap: past the cap, the text still held back is dropped, never stored. `onKept` sees each
 * piece as it is kept (what a live view may show while the process runs), and `full` once the
 * cap is reached.
 */
import { StringDecoder } from "node:string_decoder";
import type { Scrubber } from "./scrubber";
import { ScrubStream } from "./scrub-stream";

type ScrubbedCapture = {
  push: (chunk: Buffer) => void;
  /** The scrubbed text; call once the stream has ended. */
  text: () => string;
  /** Bytes the stream produced, the dropped ones included. */
  readonly bytes: number;
};

/** Captures a process's output with secrets scrubbed, up to a cap. */
export const scrubbedCapture = (
  scrubber: Scrubber,
  capBytes: number,
  onKept?: (text: string, full: boolean) => void,
): ScrubbedCapture => {
  const decoder = new StringDecoder("utf8");
  const stream = new ScrubStream(scrubber);
  const kept: string[] = [];
  let keptBytes = 0;
  let bytes = 0;
  let done = false;
  const keep = (text: string) => {
    if (text === "" || keptBytes >= capBytes) return;
    const size = Buffer.byteLength(text);
    const fits =
      keptBytes + size <= capBytes
        ? text
        : Buffer.from(text)
            .subarray(0, capBytes - keptBytes)
            .toString("utf8");
    kept.push(fits);
    keptBytes = Math.min(capBytes, keptBytes + size);
    if (keptBytes >= capBytes) done = true;
    onKept?.(fits, keptBytes >= capBytes);
  };
  return {
    push(chunk) {
      const room = capBytes - bytes;
      bytes += chunk.length;
      if (done) return;
      if (chunk.length <= room) return keep(stream.write(decoder.write(chunk)));
      keep(stream.write(decoder.write(chunk.subarray(0, Math.max(0, room)))));
      keep(stream.cut());
      if (!done) onKept?.("", true);
      done = true;
    },
    text() {
      if (!done) {
        keep(stream.write(decoder.end()));
        keep(stream.end());
        done = true;
      }
      return kept.join("");
    },
    get bytes() {
      return bytes;
    },
  };
};
