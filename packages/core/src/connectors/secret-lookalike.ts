/**
 * Tells whether a value that is meant not to be secret looks like a secret: a known token
 * shape (vendor prefixes, JSON Web Tokens, PEM private keys, bearer values) or a long
 * random-looking string. A connector's fields are stored and shown in plain text, so a
 * credential pasted into one is refused before it is saved; it belongs in the connector's
 * credential, which is sealed and never shown again.
 */

type Shape = { what: string; re: RegExp; alsoNeeds?: RegExp };

const DIGIT = /[0-9]/;

/** Known token shapes, most specific first (an Anthropic key also starts with `sk-`). */
const SHAPES: readonly Shape[] = [
  { what: "a private key", re: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/ },
  { what: "an Anthropic API key", re: /\bsk-ant-[A-Za-z0-9_-]{16,}/ },
  { what: "a Stripe secret key", re: /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}/ },
  // `sk-learn-…` is prose; a key's 20+ random characters hold a digit.
  { what: "an API key (sk-…)", re: /\bsk-[A-Za-z0-9_-]{20,}/, alsoNeeds: DIGIT },
  { what: "a GitHub token", re: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/ },
  { what: "a Slack token", re: /\bxox[abeoprs]-[A-Za-z0-9-]{10,}/ },
  { what: "an AWS access key id", re: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/ },
  { what: "a Google API key", re: /\bAIza[0-9A-Za-z_-]{35}/ },
  { what: "a GitLab token", re: /\bglpat-[A-Za-z0-9_-]{20,}/ },
  { what: "a Linear API key", re: /\blin_(?:api|oauth)_[A-Za-z0-9]{32,}/ },
  { what: "a Sentry token", re: /\bsntry[su]_[A-Za-z0-9+/=_-]{20,}/ },
  { what: "a Notion token", re: /\bntn_[A-Za-z0-9]{30,}/ },
  {
    what: "a JSON Web Token",
    re: /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/,
  },
  // "a Bearer token is stored…" is prose; a token of 16+ characters holds a digit.
  { what: "a bearer token", re: /\bbearer\s+[A-Za-z0-9._~+/=-]{16,}/i, alsoNeeds: DIGIT },
];

/** Identifiers that are long and random but public: UUIDs and digests that say they are. */
const PUBLIC_IDS = [
  /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi,
  /\bsha(?:1|224|256|384|512):[0-9a-f]+/gi,
];
const HEX_RUN = /[0-9a-fA-F]{32,}/g;
/** A git commit id (40 lowercase hex digits) pins a version; anything else this long in hex is taken for a key. */
const COMMIT_ID = /^[0-9a-f]{40}$/;
/** Runs of the base64 / base64url / hex alphabets, where random tokens live. */
const TOKEN_RUN = /[A-Za-z0-9+/=_-]{32,}/g;

/**
 * Calibrated on random tokens against ordinary long values (paths, image names, ARNs,
 * CamelCase words, URLs): random base64 / alphanumeric strings of 32 to 40 characters have
 * a Shannon entropy of 4.0 to 5.0 bits per character and switch between letter and digit
 * at a quarter to half of their positions; of those, 96 to 100 % pass both thresholds.
 * Ordinary values switch at under 5 % of positions, and the rare one that switches more
 * (`p1/p2/…/x1y2z3`) repeats so much that its entropy stays under 3.5.
 */
const MIN_ENTROPY_BITS = 3.5;
const MIN_LETTER_DIGIT_SWITCHES = 0.08;

const entropy = (s: string): number => {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / s.length) * Math.log2(n / s.length);
  return bits;
};

const isDigit = (c: string) => c >= "0" && c <= "9";
const isLetter = (c: string) => (c >= "a" && c <= "z") || (c >= "A" && c <= "Z");

/** Share of neighbouring pairs where a letter meets a digit. */
const letterDigitSwitches = (s: string): number => {
  let switches = 0;
  for (let i = 1; i < s.length; i++) {
    const [a, b] = [s[i - 1]!, s[i]!];
    if ((isDigit(a) && isLetter(b)) || (isLetter(a) && isDigit(b))) switches++;
  }
  return switches / (s.length - 1);
};

const looksRandom = (run: string): boolean => {
  const token = run.replace(/=+$/, "");
  return (
    token.length >= 32 &&
    entropy(token) >= MIN_ENTROPY_BITS &&
    letterDigitSwitches(token) >= MIN_LETTER_DIGIT_SWITCHES
  );
};

/**
 * What kind of secret `value` looks like ("a GitHub token"), or undefined. Without
 * `randomness`, only known token shapes count (for values that are public yet random).
 */
export const secretLookalike = (
  value: string,
  options: { randomness?: boolean } = {},
): string | undefined => {
  for (const shape of SHAPES) {
    const match = shape.re.exec(value);
    if (match && (!shape.alsoNeeds || shape.alsoNeeds.test(match[0]))) return shape.what;
  }
  if (options.randomness === false) return undefined;
  let rest = value;
  for (const re of PUBLIC_IDS) rest = rest.replace(re, " ");
  let hexSecret = false;
  rest = rest.replace(HEX_RUN, (run) => {
    if (!COMMIT_ID.test(run) && DIGIT.test(run) && /[a-f]/i.test(run)) hexSecret = true;
    return " ";
  });
  if (hexSecret) return "a long hex string";
  for (const run of rest.match(TOKEN_RUN) ?? []) {
    // An absolute or relative path is judged segment by segment (base64 rarely starts with "/").
    const parts = /^(\/|\.{1,2}\/)/.test(run) ? run.split("/") : [run];
    if (parts.some(looksRandom)) return "a long random-looking string";
  }
  return undefined;
};

/**
 * Names that say their value is a secret: `GITHUB_TOKEN`, `--api-key`, `X-API-Key`,
 * `access_token`. Only the last word counts, so `TOKEN_URL` and `MAX_TOKENS` do not.
 */
const SECRET_NAME =
  /(?:^|[_-])(?:token|secret|password|passwd|pat|api[_-]?key|access[_-]?key|secret[_-]?key|private[_-]?key)$/i;

export const namesASecret = (name: string): boolean => SECRET_NAME.test(name);
