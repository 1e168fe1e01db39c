/**
 * Makes a value safe to store or show: every string in it (keys included) is scrubbed of the
 * step's secret values and of common token shapes, and the whole is capped in size.
 */
import { mapStrings, Scrubber } from "../secrets";

const RECORD_VALUE_CAP = 32_000;

const TOKEN_SHAPES: RegExp[] = [
  /\b(?:sk|rk|pk)-(?:[A-Za-z0-9_-]{2,}-)?[A-Za-z0-9_-]{20,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{30,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{30,}/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\bglpat-[A-Za-z0-9_-]{20,}/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
  /(\b[Bb]earer\s+)[A-Za-z0-9._~+/=-]{16,}/g,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
];

export class Redactor {
  private readonly scrubber = new Scrubber();

  addSecrets(values: readonly string[]): this {
    for (const v of values) this.scrubber.add(v);
    return this;
  }

  /** Scrubs secret values and token shapes: for what is stored (records, spans, logs). */
  text(input: string): string {
    let out = this.scrubber.scrub(input);
    for (const re of TOKEN_SHAPES) {
      re.lastIndex = 0;
      if (re.test(out)) {
        re.lastIndex = 0;
        out = out.replace(re, (match: string, prefix?: string) =>
          typeof prefix === "string" && match.startsWith(prefix)
            ? `${prefix}[REDACTED]`
            : "[REDACTED]",
        );
      }
    }
    return out;
  }

  value<T>(input: T): T {
    return mapStrings(input, (s) => this.text(s)) as T;
  }

  /** Scrubs only the step's secret values: for results handed back to the agent. */
  secrets<T>(input: T): T {
    return this.scrubber.scrubValue(input);
  }
}

/** Keeps a stored value under `cap` characters of JSON; larger ones become a marked preview. */
export const capValue = (value: unknown, cap: number = RECORD_VALUE_CAP): unknown => {
  if (value === undefined) return undefined;
  const json = JSON.stringify(value);
  if (json === undefined || json.length <= cap) return value;
  return { truncated: true, size: json.length, preview: json.slice(0, cap) };
};
