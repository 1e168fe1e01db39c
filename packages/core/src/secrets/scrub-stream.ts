/**
 * Scrubs text that arrives in pieces (a process's output as it is read), so a secret split
 * across two chunks is caught like one that arrives whole. It gives out only text that no
 * later chunk can turn into part of a secret, and holds back the rest: at most the
 * scrubber's longest match less one character, or from the start of a match that reaches
 * into that tail.
 */
import { redactSpans, type Scrubber } from "./scrubber";

/** Scrubs secrets from a stream of text, including ones split across chunks. */
export class ScrubStream {
  private held = "";

  constructor(private readonly scrubber: Scrubber) {}

  /** Takes the next piece; returns the scrubbed text that is now final. */
  write(text: string): string {
    const buffer = this.held + text;
    const spans = this.scrubber.spans(buffer);
    let cut = Math.max(0, buffer.length - Math.max(0, this.scrubber.maxMatchLength - 1));
    // Spans are disjoint: at most one reaches across the cut. Everything from its start
    // waits, so it is matched again with what follows.
    const across = spans.find(([start, end]) => start < cut && end > cut);
    if (across) cut = across[0];
    this.held = buffer.slice(cut);
    return redactSpans(
      buffer.slice(0, cut),
      spans.filter(([, end]) => end <= cut),
    );
  }

  /** The stream is complete: the held text, scrubbed. */
  end(): string {
    const rest = this.scrubber.scrub(this.held);
    this.held = "";
    return rest;
  }

  /** The stream was cut short (an output cap): what is final is given, the held tail dropped. */
  cut(): string {
    const final = this.write("");
    this.held = "";
    return final;
  }
}
