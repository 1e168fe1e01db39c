/**
 * A streaming JSON reader that holds no document: fed text in pieces cut anywhere, it
 * reports each shallow primitive value with its path, so the gateway can read token
 * counts from a model response of any size while the bytes pass through. A path is the
 * object keys joined by `.`, with `[]` for an array level (`usage.input_tokens`,
 * `[].usageMetadata.promptTokenCount`); a key that holds a `.` makes its paths match
 * nothing. Strings are kept only up to a short cap and only at shallow depth; deeper
 * content is skipped as it streams. Lenient (not a validator): on text that is not JSON
 * it stops reporting and sets `failed`.
 */

export type JsonPrimitive = string | number | boolean | null;
export type OnJsonValue = (path: string, value: JsonPrimitive) => void;

export type JsonScannerLimits = {
  /** Values nested deeper than this are skipped (their strings are not kept). */
  maxDepth: number;
  /** Longer strings are not reported (and longer keys match nothing). */
  maxStringLength: number;
};

const DEFAULT_LIMITS: JsonScannerLimits = { maxDepth: 6, maxStringLength: 512 };

/** A path segment no rule can name: a key too long, with a `.`, or too deep. */
const UNMATCHABLE = "\u0000";

/** An open object or array; `child` is the path of the value being read in it. */
type Frame = { array: boolean; path: string; child: string };

type State =
  | "value" // a value (after `:`, after `,` in an array, or at the top)
  | "first-in-array" // a value or `]`
  | "first-key" // a key or `}`
  | "key" // a key (after `,` in an object)
  | "colon"
  | "after-value" // `,`, `]`, `}`, or the end at the top
  | "string"
  | "escape"
  | "unicode"
  | "number"
  | "literal"
  | "done"
  | "failed";

const LITERALS: Record<string, JsonPrimitive> = { true: true, false: false, null: null };
const ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isNumberChar = (c: number) =>
  isDigit(c) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45;
const isLower = (c: number) => c >= 0x61 && c <= 0x7a;
/** Where a string's plain run ends; a sticky search stops at the first hit. */
const STRING_STOP = /["\\]/g;

const join = (parent: string, segment: string) => (parent ? `${parent}.${segment}` : segment);

export class JsonScanner {
  private state: State = "value";
  private readonly stack: Frame[] = [];
  private text = "";
  private overflow = false;
  private keep = false;
  private isKey = false;
  private hex = "";
  private readonly limits: JsonScannerLimits;

  constructor(
    private readonly onValue: OnJsonValue,
    limits: Partial<JsonScannerLimits> = {},
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  get failed(): boolean {
    return this.state === "failed";
  }

  /** True once one whole top-level value has been read. */
  get complete(): boolean {
    return this.state === "done";
  }

  /** Back to the start, for the next document (e.g. the next SSE event). */
  reset(): void {
    this.state = "value";
    this.stack.length = 0;
    this.text = "";
    this.overflow = false;
  }

  /** Ends the input: a number or literal still open at the top level is finished. */
  end(): void {
    if (this.state === "number" || this.state === "literal") this.finishScalar();
  }

  write(chunk: string): void {
    let i = 0;
    while (i < chunk.length && this.state !== "failed") {
      if (this.state === "string") {
        i = this.readString(chunk, i);
        continue;
      }
      const c = chunk.charCodeAt(i);
      if (this.state === "number" || this.state === "literal") {
        const more = this.state === "number" ? isNumberChar(c) : isLower(c);
        if (more && this.text.length < 64) {
          this.text += chunk[i];
          i++;
          continue;
        }
        this.finishScalar();
        continue; // the same character again, in the new state
      }
      i++;
      if (isSpace(c) && this.state !== "escape" && this.state !== "unicode") continue;
      this.step(c, chunk[i - 1]!);
    }
  }

  private step(c: number, ch: string): void {
    switch (this.state) {
      case "escape": {
        if (ch === "u") {
          this.hex = "";
          this.state = "unicode";
          return;
        }
        const decoded = ESCAPES[ch];
        if (decoded === undefined) return this.fail();
        this.append(decoded);
        this.state = "string";
        return;
      }
      case "unicode":
        if (!/[0-9a-fA-F]/.test(ch)) return this.fail();
        this.hex += ch;
        if (this.hex.length === 4) {
          this.append(String.fromCharCode(parseInt(this.hex, 16)));
          this.state = "string";
        }
        return;
      case "done":
        return this.fail();
      case "first-in-array":
        if (c === 0x5d) return this.close(true);
        return this.startValue(c, ch);
      case "value":
        return this.startValue(c, ch);
      case "first-key":
        if (c === 0x7d) return this.close(false);
        if (c !== 0x22) return this.fail();
        return this.startString(true);
      case "key":
        if (c !== 0x22) return this.fail();
        return this.startString(true);
      case "colon":
        if (c !== 0x3a) return this.fail();
        this.state = "value";
        return;
      case "after-value": {
        const top = this.stack[this.stack.length - 1];
        if (!top) return this.fail();
        if (c === 0x2c) {
          this.state = top.array ? "value" : "key";
          return;
        }
        if (c === (top.array ? 0x5d : 0x7d)) return this.close(top.array);
        return this.fail();
      }
      case "string":
      case "number":
      case "literal":
      case "failed":
        return;
    }
  }

  private startValue(c: number, ch: string): void {
    if (c === 0x7b || c === 0x5b) {
      const array = c === 0x5b;
      const parent = this.stack[this.stack.length - 1];
      const path = parent ? parent.child : "";
      const deep = this.stack.length >= this.limits.maxDepth;
      this.stack.push({
        array,
        path,
        child: deep ? UNMATCHABLE : array ? join(path, "[]") : UNMATCHABLE,
      });
      this.state = array ? "first-in-array" : "first-key";
    } else if (c === 0x22) this.startString(false);
    else if (c === 0x2d || isDigit(c)) {
      this.text = ch;
      this.state = "number";
    } else if (ch === "t" || ch === "f" || ch === "n") {
      this.text = ch;
      this.state = "literal";
    } else this.fail();
  }

  private startString(isKey: boolean): void {
    this.isKey = isKey;
    this.text = "";
    this.overflow = false;
    this.keep = this.stack.length <= this.limits.maxDepth;
    this.state = "string";
  }

  /** Reads string content up to the next quote or backslash in one slice. */
  private readString(chunk: string, from: number): number {
    STRING_STOP.lastIndex = from;
    const stop = STRING_STOP.exec(chunk)?.index ?? -1;
    const end = stop < 0 ? chunk.length : stop;
    if (end > from && this.keep && !this.overflow) this.append(chunk.slice(from, end));
    if (stop < 0) return chunk.length;
    if (chunk.charCodeAt(stop) === 0x5c) this.state = "escape";
    else this.finishString();
    return stop + 1;
  }

  private append(piece: string): void {
    if (!this.keep || this.overflow) return;
    if (this.text.length + piece.length > this.limits.maxStringLength) {
      this.overflow = true;
      this.text = "";
    } else this.text += piece;
  }

  private finishString(): void {
    const value = this.keep && !this.overflow ? this.text : undefined;
    this.text = "";
    if (this.isKey) {
      const top = this.stack[this.stack.length - 1];
      if (top) {
        const usable =
          value !== undefined && !value.includes(".") && !top.path.includes(UNMATCHABLE);
        top.child =
          usable && this.stack.length <= this.limits.maxDepth ? join(top.path, value) : UNMATCHABLE;
      }
      this.state = "colon";
      return;
    }
    if (value !== undefined) this.emit(value);
    this.afterValue();
  }

  private finishScalar(): void {
    const text = this.text;
    this.text = "";
    let value: JsonPrimitive;
    if (this.state === "number") {
      value = Number(text);
      if (!Number.isFinite(value)) return this.fail();
    } else {
      if (!Object.hasOwn(LITERALS, text)) return this.fail();
      value = LITERALS[text]!;
    }
    this.emit(value);
    this.afterValue();
  }

  private close(array: boolean): void {
    const top = this.stack.pop();
    if (!top || top.array !== array) return this.fail();
    this.afterValue();
  }

  private afterValue(): void {
    this.state = this.stack.length === 0 ? "done" : "after-value";
  }

  private emit(value: JsonPrimitive): void {
    const top = this.stack[this.stack.length - 1];
    const path = top ? top.child : "";
    if (!path.includes(UNMATCHABLE)) this.onValue(path, value);
  }

  private fail(): void {
    this.state = "failed";
    this.stack.length = 0;
    this.text = "";
  }
}
