/**
 * Replaces every known secret value (and its common encodings) in text before it is
 * stored or streamed. Every value a step uses joins the step's scrubber.
 */
export class Scrubber {
  private readonly needles = new Set<string>();

  add(secret: string | undefined | null): this {
    if (!secret || secret.length < 4) return this;
    this.needles.add(secret);
    this.needles.add(Buffer.from(secret).toString("base64"));
    this.needles.add(Buffer.from(secret).toString("base64url"));
    this.needles.add(encodeURIComponent(secret));
    this.needles.add(JSON.stringify(secret).slice(1, -1));
    return this;
  }

  scrub(text: string): string {
    let result = text;
    // Longest first, so a secret that contains another is replaced whole.
    const ordered = [...this.needles].sort((a, b) => b.length - a.length);
    for (const needle of ordered) {
      if (needle.length >= 4) result = result.split(needle).join("[REDACTED]");
    }
    return result;
  }

  /**
   * For text cut at a size cap: scrubs it, then also redacts a tail that is the start of
   * a secret (at least 4 characters of it), which the cut would otherwise leave in clear.
   */
  scrubTruncated(text: string): string {
    const result = this.scrub(text);
    for (const needle of this.needles) {
      for (let n = Math.min(needle.length - 1, result.length); n >= 4; n--) {
        if (result.endsWith(needle.slice(0, n))) return `${result.slice(0, result.length - n)}[REDACTED]`;
      }
    }
    return result;
  }
}
