import { expect, it } from "vitest";
import { scrubbedCapture } from "./scrubbed-capture";
import { Scrubber } from "./scrubber";
import { ScrubStream } from "./scrub-stream";

const secret = "tok-0123456789abcdef";
const other = 'pa ss/wörd+"quoted"';

const random = (seed: number) => () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x80000000;
};

/** Output holding both secrets in every form the scrubber knows, between ordinary lines. */
const output = [
  "starting",
  `token=${secret}`,
  `> Authorization: Basic ${Buffer.from(`user:${secret}`).toString("base64")}`,
  `hex ${Buffer.from(`xy${secret}`).toString("hex").toUpperCase()}`,
  `url ?p=${encodeURIComponent(other)}&q=1`,
  `json {"v":${JSON.stringify(other)}}`,
  Buffer.from(`${"-".repeat(45)}${other}${secret}`)
    .toString("base64")
    .replace(/(.{76})/g, "$1\n"),
  "done",
].join("\n");

const collapse = (text: string) => text.replace(/(\[REDACTED\])+/g, "[REDACTED]");

const splitAt = (text: string, next: () => number) => {
  const pieces: string[] = [];
  for (let at = 0; at < text.length;) {
    const size = 1 + Math.floor(next() * 40);
    pieces.push(text.slice(at, at + size));
    at += size;
  }
  return pieces;
};

it("scrubs a secret split across chunks at any point, like the whole text", () => {
  const scrubber = new Scrubber().add(secret).add(other);
  const whole = scrubber.scrub(output);
  expect(whole).not.toContain(secret);
  expect(whole.match(/\[REDACTED\]/g)).toHaveLength(6); // the two secrets side by side in base64 make one
  const next = random(3);
  for (let i = 0; i < 200; i++) {
    const stream = new ScrubStream(scrubber);
    const out =
      splitAt(output, next)
        .map((piece) => stream.write(piece))
        .join("") + stream.end();
    expect(collapse(out)).toBe(collapse(whole));
  }
});

it("holds back no more than it must, and everything when it knows no secret", () => {
  const scrubber = new Scrubber().add(secret);
  const stream = new ScrubStream(scrubber);
  const line = "x".repeat(1000);
  expect(stream.write(line).length).toBe(1000 - (scrubber.maxMatchLength - 1));
  expect(new ScrubStream(new Scrubber()).write("abc")).toBe("abc");
});

it("cut short in the middle of a secret, gives out nothing of it", () => {
  const scrubber = new Scrubber().add(secret);
  const stream = new ScrubStream(scrubber);
  const out = stream.write(`${"a".repeat(500)} ${secret.slice(0, 12)}`) + stream.cut();
  expect(out).not.toContain(secret.slice(0, 4));
  expect(out.startsWith("a".repeat(400))).toBe(true);
});

it("captures output scrubbed, with a character split between chunks kept whole", () => {
  const scrubber = new Scrubber().add(secret);
  const bytes = Buffer.from(`ünïcode ${secret} ✓ done`);
  const capture = scrubbedCapture(scrubber, 1024);
  for (let i = 0; i < bytes.length; i += 3) capture.push(bytes.subarray(i, i + 3));
  expect(capture.text()).toBe("ünïcode [REDACTED] ✓ done");
  expect(capture.bytes).toBe(bytes.length);
});

it("keeps no part of a secret that the output cap cuts", () => {
  const scrubber = new Scrubber().add(secret);
  for (let at = 90; at <= 110; at++) {
    const capture = scrubbedCapture(scrubber, at);
    const raw = Buffer.from(`${"o".repeat(100)}${secret} and more output`);
    capture.push(raw.subarray(0, 60));
    capture.push(raw.subarray(60));
    const text = capture.text();
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(at);
    expect(text, `cap ${at}`).not.toMatch(/tok|o{100}t/);
    expect(capture.bytes).toBe(raw.length);
  }
  const whole = scrubbedCapture(scrubber, 1000);
  whole.push(Buffer.from(`a ${secret} b`));
  expect(whole.text()).toBe("a [REDACTED] b");
});
