import { expect, it } from "vitest";
import { AppError } from "../errors/app-error";
import { Scrubber } from "./scrubber";

const secret = "tok-0123456789abcdef";

/** A small seeded generator, so a failing case can be replayed. */
const random = (seed: number) => () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x80000000;
};
const noise = (next: () => number, n: number) =>
  Buffer.from(Array.from({ length: n }, () => Math.floor(next() * 256)));

/**
 * What scrubbing `before + value + after`, encoded, must leave: every character made only
 * of the surrounding bytes, and not one character that carries a bit of the value.
 */
const expectedAround = (
  value: string,
  before: Buffer,
  after: Buffer,
  encoding: "base64" | "base64url" | "hex",
) => {
  const encoded = Buffer.concat([before, Buffer.from(value), after]).toString(encoding);
  const end = before.length + Buffer.byteLength(value);
  const [head, tail] =
    encoding === "hex"
      ? [2 * before.length, 2 * end]
      : [Math.floor((8 * before.length) / 6), Math.ceil((8 * end) / 6)];
  const rest = encoded.slice(tail);
  return {
    encoded,
    scrubbed: `${encoded.slice(0, head)}[REDACTED]${after.length === 0 ? rest.replace(/^=+/, "") : rest}`,
  };
};

it("replaces a secret and its common encodings", () => {
  const s = new Scrubber().add(secret);
  const text = `a ${secret} b ${Buffer.from(secret).toString("base64")} c ${encodeURIComponent(secret)}`;
  expect(s.scrub(text)).toBe("a [REDACTED] b [REDACTED] c [REDACTED]");
});

it("catches base64 and base64url at every byte alignment, as in curl -v's Basic credentials", () => {
  const s = new Scrubber().add(secret);
  const header = `Authorization: Basic ${Buffer.from(`user:${secret}`).toString("base64")}`;
  // "dXNlcj" is "user" and two bits of ":": nothing of the secret is left.
  expect(s.scrub(header)).toBe("Authorization: Basic dXNlcj[REDACTED]");
  const next = random(7);
  for (let i = 0; i < 300; i++) {
    const before = noise(next, Math.floor(next() * 12));
    const after = noise(next, Math.floor(next() * 12));
    for (const encoding of ["base64", "base64url", "hex"] as const) {
      const { encoded, scrubbed } = expectedAround(secret, before, after, encoding);
      const what = `${encoding} with ${before.length} bytes before and ${after.length} after`;
      expect(s.scrub(`x ${encoded} y`), what).toBe(`x ${scrubbed} y`);
      if (encoding === "hex")
        expect(s.scrub(`x ${encoded.toUpperCase()} y`), what).toBe(`x ${scrubbed.toUpperCase()} y`);
    }
  }
});

it("catches base64 and hex wrapped over lines, as `base64` and `xxd -p` print long input", () => {
  const s = new Scrubber().add(secret);
  const next = random(11);
  for (let i = 0; i < 100; i++) {
    const before = noise(next, 40 + Math.floor(next() * 40));
    const after = noise(next, Math.floor(next() * 40));
    for (const [encoding, width] of [
      ["base64", 76],
      ["hex", 60],
    ] as const) {
      const { encoded, scrubbed } = expectedAround(secret, before, after, encoding);
      const wrapped = encoded.replace(new RegExp(`(.{${width}})`, "g"), "$1\n");
      const out = s.scrub(`x\n${wrapped}\ny`);
      expect(out.replace(/\n/g, ""), `${encoding} with ${before.length} bytes before`).toBe(
        `x${scrubbed}y`,
      );
    }
  }
});

it("catches hex in either case and percent-encoding in any of its spellings", () => {
  const special = "p@ss w/rd:ü&=+%";
  const s = new Scrubber().add(special);
  const hex = Buffer.from(special).toString("hex");
  const forms = [
    hex,
    hex.toUpperCase(),
    encodeURIComponent(special),
    encodeURIComponent(special)
      .toLowerCase()
      .replace(/%c3%bc/, "%C3%bc"),
    encodeURI(special),
    new URLSearchParams({ v: special }).toString().slice(2),
    Array.from(Buffer.from(special), (b) => `%${b.toString(16).padStart(2, "0")}`).join(""),
  ];
  for (const form of forms) expect(s.scrub(`<${form}>`), form).toBe("<[REDACTED]>");
});

it("catches JSON-escaped forms, including \\u escapes", () => {
  const quoted = 'say "hi"\\now\t<tag>&ü';
  const s = new Scrubber().add(quoted);
  const escaped = JSON.stringify(quoted).slice(1, -1);
  const ascii = escaped.replace(
    /[^\x20-\x7e]|[<>&]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  expect(s.scrub(`{"v":"${escaped}"}`)).toBe('{"v":"[REDACTED]"}');
  expect(s.scrub(`{"v":"${ascii}"}`)).toBe('{"v":"[REDACTED]"}');
  const upper = ascii.replace(/\\u([0-9a-f]{4})/g, (_m, h: string) => `\\u${h.toUpperCase()}`);
  expect(upper).toContain("\\u003C");
  expect(s.scrub(`{"v":"${upper}"}`)).toBe('{"v":"[REDACTED]"}');
});

it("replaces overlapping and nested secrets whole, leaving no fragment", () => {
  const s = new Scrubber().add("XXXX-secret-YYYY").add("YYYY-second-ZZZZ").add("XXXX-secret");
  expect(s.scrub("a XXXX-secret-YYYY-second-ZZZZ b")).toBe("a [REDACTED] b");
  expect(s.scrub("XXXX-secret-YYYY")).toBe("[REDACTED]");
});

it("leaves text without secrets as it is, and ignores values too short to match", () => {
  const s = new Scrubber().add("abc").add("").add(undefined).add(null);
  const text = "abc and nothing else";
  expect(s.scrub(text)).toBe(text);
});

it("scrubs the strings of structured data and leaves its numbers and shape intact", () => {
  const s = new Scrubber().add("1000");
  const record = {
    durationMs: 10004,
    exitCode: 0,
    stdout: "paid 1000 EUR",
    nested: [{ "key-1000": true, n: 1000 }],
    gone: undefined,
  };
  const scrubbed = s.scrubValue(record);
  expect(scrubbed).toEqual({
    durationMs: 10004,
    exitCode: 0,
    stdout: "paid [REDACTED] EUR",
    nested: [{ "key-[REDACTED]": true, n: 1000 }],
  });
  expect(JSON.parse(JSON.stringify(scrubbed))).toEqual(scrubbed);
  expect(record.stdout).toBe("paid 1000 EUR"); // a copy: the engine's own state is untouched
  expect(s.scrubValue({ at: new Date(0) })).toEqual({ at: "1970-01-01T00:00:00.000Z" });
});

it("copies an error with its message and stack scrubbed, keeping an AppError's code", () => {
  const s = new Scrubber().add(secret);
  const encoded = Buffer.from(`u:${secret}`).toString("base64");
  const plain = s.scrubError(new TypeError(`bad value ${secret} (${encoded})`));
  expect(plain.name).toBe("TypeError");
  expect(plain.message).toBe("bad value [REDACTED] (dT[REDACTED])");
  expect(plain.stack).toContain("bad value [REDACTED]");
  expect(plain.stack).not.toContain(secret);
  const app = s.scrubError(
    new AppError("EXECUTION.STEP_ERROR", `failed with ${secret}`, {
      retryable: true,
      details: { token: secret },
    }),
  );
  expect(app).toBeInstanceOf(AppError);
  expect(app).toMatchObject({
    code: "EXECUTION.STEP_ERROR",
    message: "failed with [REDACTED]",
    userMessage: "failed with [REDACTED]",
    retryable: true,
    details: { token: "[REDACTED]" },
  });
  expect(s.scrubError(`thrown ${secret}`).message).toBe("thrown [REDACTED]");
});
