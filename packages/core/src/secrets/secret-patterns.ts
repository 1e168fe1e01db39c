/**
 * The forms in which a secret value shows up in output, as regular-expression sources: as
 * text (each character literal, percent-encoded or JSON-escaped), as hex in either case,
 * and as base64 or base64url at each of the three byte alignments it can have inside a
 * longer encoded string (`user:secret` in an Authorization header). For base64 only the
 * characters that depend on the secret alone are fixed; the scrubber takes the mixed
 * character at each edge along when present, so no bit of the secret is left.
 * Long secrets are cut into pieces of at most PIECE characters, each matched on its own:
 * patterns stay small, and the redactions of one occurrence's pieces touch and join.
 */
export type SecretForm = {
  source: string;
  /** The most characters a match spans, its edge characters included. */
  maxLength: number;
  /** For base64: the alphabet, and on which side a character mixed with other bytes joins the match. */
  edges?: { alphabet: RegExp; before: boolean; after: boolean };
};

const PIECE = 64;
/** Shorter base64 cores would match ordinary base64 by chance. */
const MIN_BASE64_CORE = 6;

const escapeChar = (c: string) => c.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");
/** A hex digit in either case. */
const hexDigit = (d: string) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d);
const hexOf = (n: number, width: number) =>
  [...n.toString(16).padStart(width, "0")].map(hexDigit).join("");
const JSON_SHORT: Record<string, string> = {
  '"': '\\\\"',
  "\\": "\\\\\\\\",
  "/": "\\\\/",
  "\b": "\\\\b",
  "\f": "\\\\f",
  "\n": "\\\\n",
  "\r": "\\\\r",
  "\t": "\\\\t",
};

/** Encoded forms first: the literal `%` of `%25` must not end a match before its digits. */
const alternatives = (alts: string[]) =>
  alts.length === 1 ? alts[0]! : `(?:${alts.reverse().join("|")})`;

/** Each character as itself, percent-encoded (any hex case, `+` for a space) or JSON-escaped. */
const textual = (piece: string): SecretForm => {
  let source = "";
  let maxLength = 0;
  for (const c of piece) {
    const bytes = [...Buffer.from(c, "utf8")];
    // Some encoders percent-encode every byte, letters too.
    const alts = [escapeChar(c), bytes.map((b) => `%${hexOf(b, 2)}`).join("")];
    let longest = Math.max(c.length, 3 * bytes.length);
    if (!/[A-Za-z0-9]/.test(c)) {
      if (c === " ") alts.push("\\+");
      const short = JSON_SHORT[c];
      if (short) alts.push(short);
      const units = Array.from({ length: c.length }, (_, i) => c.charCodeAt(i));
      alts.push(units.map((u) => `\\\\u${hexOf(u, 4)}`).join(""));
      longest = Math.max(longest, 6 * units.length);
    }
    source += alternatives(alts);
    maxLength += longest;
  }
  return { source, maxLength };
};

const hex = (bytes: Buffer): SecretForm => ({
  source: [...bytes.toString("hex")].map(hexDigit).join(""),
  maxLength: 2 * bytes.length,
});

const base64 = (bytes: Buffer, alphabet: "base64" | "base64url"): SecretForm[] => {
  const edge = alphabet === "base64" ? /[A-Za-z0-9+/]/ : /[A-Za-z0-9_-]/;
  const forms: SecretForm[] = [];
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes])
      .toString(alphabet)
      .replace(/=+$/, "");
    // Characters wholly made of the secret's bits: from the first after the offset's bits
    // to the last before the bytes that follow.
    const core = encoded.slice(
      Math.ceil((8 * offset) / 6),
      Math.floor((8 * (offset + bytes.length)) / 6),
    );
    if (core.length < MIN_BASE64_CORE) continue;
    const before = offset !== 0;
    const after = (offset + bytes.length) % 3 !== 0;
    forms.push({
      source: [...core].map(escapeChar).join(""),
      // The mixed character on each side, and up to two `=` of padding.
      maxLength: core.length + (before ? 1 : 0) + (after ? 3 : 0),
      edges: { alphabet: edge, before, after },
    });
  }
  return forms;
};

/** A secret's pieces: itself, or windows of PIECE code points, the last one overlapping. */
export const piecesOf = (secret: string): string[] => {
  const points = [...secret];
  if (points.length <= PIECE) return [secret];
  const pieces: string[] = [];
  for (let i = 0; i < points.length; i += PIECE) {
    const start = Math.min(i, points.length - PIECE);
    pieces.push(points.slice(start, start + PIECE).join(""));
  }
  return pieces;
};

/** Every form of one piece, longest first, deduplicated. */
export const formsOf = (piece: string): SecretForm[] => {
  const bytes = Buffer.from(piece, "utf8");
  const all = [
    textual(piece),
    hex(bytes),
    ...base64(bytes, "base64"),
    ...base64(bytes, "base64url"),
  ];
  const unique = new Map(all.map((p) => [p.source, p]));
  return [...unique.values()].sort((a, b) => b.maxLength - a.maxLength);
};
