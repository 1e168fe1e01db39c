/**
 * Replaces every known secret value, and its common encodings (see secret-patterns.ts), in
 * text before it is stored or streamed. Every value a step uses joins the step's scrubber.
 * Structured data is scrubbed string by string (`scrubValue`), errors by copy
 * (`scrubError`); output read in chunks goes through a ScrubStream.
 */
import { AppError } from "../errors/app-error";
import { mapStrings } from "./map-strings";
import { formsOf, piecesOf, type SecretForm } from "./secret-patterns";

const REDACTED = "[REDACTED]";
/** Below this a value would match ordinary text; it is not scrubbed (the save path refuses short secrets). */
const FLOOR = 4;
/**
 * Base64 or hex as encoders wrap it over lines (`base64` at 76, `xxd -p` at 60): a run of
 * such lines, each but the first and last at least 16 characters. Found blocks are searched
 * again with their line breaks taken out.
 */
const WRAPPED =
  /(?<![A-Za-z0-9+/_=-])[A-Za-z0-9+/_=-]+(?:\r?\n[A-Za-z0-9+/_=-]{16,})*\r?\n[A-Za-z0-9+/_=-]+/g;
const WRAPPED_MIN = 24;

type Span = readonly [start: number, end: number];
/** One regular expression per piece of a secret, one capturing group per form. */
type Matcher = { re: RegExp; forms: SecretForm[] };

/** Replaces known secret values in text. */
export class Scrubber {
  private readonly values = new Set<string>();
  private readonly matchers = new Map<string, Matcher>();
  private longest = 0;

  add(secret: string | undefined | null): this {
    if (!secret || secret.length < FLOOR || this.values.has(secret)) return this;
    this.values.add(secret);
    for (const piece of piecesOf(secret)) {
      if (this.matchers.has(piece)) continue;
      const forms = formsOf(piece);
      this.matchers.set(piece, {
        re: new RegExp(forms.map((f) => `(${f.source})`).join("|"), "g"),
        forms,
      });
      // Wrapped over lines, a match also spans a line break every 16 characters at worst.
      const widest = forms[0]!.maxLength;
      this.longest = Math.max(this.longest, widest + 2 * (Math.ceil(widest / 16) + 1));
    }
    return this;
  }

  get isEmpty(): boolean {
    return this.values.size === 0;
  }

  /** The most characters one match can span: a stream holds back one less than this. */
  get maxMatchLength(): number {
    return this.longest;
  }

  /** Where secrets occur in `text`: disjoint [start, end) spans in order, overlapping or touching matches joined. */
  spans(text: string): Span[] {
    if (this.matchers.size === 0 || text.length === 0) return [];
    const found: [number, number][] = [];
    this.collect(text, found);
    if (text.includes("\n")) {
      WRAPPED.lastIndex = 0;
      for (let m = WRAPPED.exec(text); m; m = WRAPPED.exec(text)) {
        const joined = m[0].replace(/\r?\n/g, "");
        if (joined.length < WRAPPED_MIN) continue;
        const inBlock: [number, number][] = [];
        this.collect(joined, inBlock);
        if (inBlock.length === 0) continue;
        const origin: number[] = [];
        for (let i = 0; i < m[0].length; i++)
          if (m[0][i] !== "\r" && m[0][i] !== "\n") origin.push(m.index + i);
        for (const [start, end] of inBlock) found.push([origin[start]!, origin[end - 1]! + 1]);
      }
    }
    found.sort((a, b) => a[0] - b[0]);
    const merged: [number, number][] = [];
    for (const [start, end] of found) {
      const last = merged[merged.length - 1];
      if (last && start <= last[1]) last[1] = Math.max(last[1], end);
      else merged.push([start, end]);
    }
    return merged;
  }

  /** Adds the matches in `text` to `found`. */
  private collect(text: string, found: [number, number][]): void {
    for (const { re, forms } of this.matchers.values()) {
      re.lastIndex = 0;
      for (let m = re.exec(text); m; m = re.exec(text)) {
        let start = m.index;
        let end = start + m[0].length;
        const edges = forms[m.findIndex((group, i) => i > 0 && group !== undefined) - 1]?.edges;
        if (edges?.before && start > 0 && edges.alphabet.test(text[start - 1]!)) start--;
        if (edges?.after && end < text.length && edges.alphabet.test(text[end]!)) {
          end++;
          for (let pad = 0; pad < 2 && text[end] === "="; pad++) end++;
        }
        found.push([start, end]);
        // Overlapping occurrences too, so no fragment of one survives beside another.
        re.lastIndex = m.index + 1;
      }
    }
  }

  scrub(text: string): string {
    return redactSpans(text, this.spans(text));
  }

  /** A copy of a JSON-like value with every string (keys included) scrubbed; numbers and structure intact. */
  scrubValue<T>(value: T): T {
    if (this.isEmpty) return value;
    return mapStrings(value, (s) => this.scrub(s)) as T;
  }

  /**
   * A copy of an error that is safe to record or rethrow: message, stack (and an AppError's
   * user message and details) scrubbed, its code and retryability kept, its cause dropped.
   */
  scrubError(error: unknown): Error {
    if (error instanceof AppError) {
      const copy = new AppError(error.code, this.scrub(error.message), {
        userMessage: this.scrub(error.userMessage),
        retryable: error.retryable,
        location: this.scrubValue(error.location),
        details: this.scrubValue(error.details),
      });
      copy.stack = error.stack === undefined ? undefined : this.scrub(error.stack);
      return copy;
    }
    const original = error instanceof Error ? error : new Error(String(error));
    const copy = new Error(this.scrub(original.message));
    copy.name = original.name;
    copy.stack = original.stack === undefined ? undefined : this.scrub(original.stack);
    return copy;
  }
}

/** `text` with each span replaced by one REDACTED marker. */
export const redactSpans = (text: string, spans: readonly Span[]): string => {
  if (spans.length === 0) return text;
  let out = "";
  let at = 0;
  for (const [start, end] of spans) {
    out += text.slice(at, start) + REDACTED;
    at = end;
  }
  return out + text.slice(at);
};
