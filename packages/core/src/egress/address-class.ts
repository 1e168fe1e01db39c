/**
 * What kind of address an IP is, for the egress guard: public (reachable on the internet)
 * or one of the ranges a request made on a user's behalf must not reach unless the operator
 * allows it (loopback, private, link-local and cloud metadata, CGNAT, unique-local, ...).
 * Addresses that carry an IPv4 address inside an IPv6 one (IPv4-mapped, NAT64, 6to4) are
 * judged by the IPv4 address they carry, so `::ffff:127.0.0.1` or `64:ff9b::a9fe:a9fe`
 * is no way around the rules.
 */
import { isIPv4, isIPv6 } from "node:net";

export type AddressClass =
  | "public"
  | "unspecified"
  | "loopback"
  | "private"
  | "link-local"
  | "cgnat"
  | "unique-local"
  | "multicast"
  | "reserved";

/** An address as 4 or 16 bytes; undefined for anything that is not an IP address. */
type AddressBytes = { family: 4 | 6; bytes: number[] };

const zeros = (n: number) => new Array<number>(Math.max(n, 0)).fill(0);

const v4Bytes = (text: string): number[] | undefined => {
  if (!isIPv4(text)) return undefined;
  return text.split(".").map(Number);
};

/** The 16 bytes of an IPv6 address (with `::`, an embedded dotted quad or a zone id). */
const v6Bytes = (input: string): number[] | undefined => {
  const text = input.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (!isIPv6(text)) return undefined;
  // A trailing dotted quad (`::ffff:1.2.3.4`) is the last two groups written another way.
  const hex = text.replace(
    /(\d+)\.(\d+)\.(\d+)\.(\d+)$/,
    (_m, a: string, b: string, c: string, d: string) =>
      `${((Number(a) << 8) | Number(b)).toString(16)}:${((Number(c) << 8) | Number(d)).toString(16)}`,
  );
  const [left = "", right] = hex.split("::");
  const groups = (part: string) => (part === "" ? [] : part.split(":").map((g) => parseInt(g, 16)));
  const l = groups(left);
  const r = right === undefined ? [] : groups(right);
  const all = right === undefined ? l : [...l, ...zeros(8 - l.length - r.length), ...r];
  const bytes = all.flatMap((g) => [(g >> 8) & 0xff, g & 0xff]);
  return bytes.length === 16 ? bytes : undefined;
};

/** An IP address as bytes; IPv6 forms that carry an IPv4 address are unwrapped to it. */
export const addressBytes = (address: string): AddressBytes | undefined => {
  const four = v4Bytes(address);
  if (four) return { family: 4, bytes: four };
  const six = v6Bytes(address);
  if (!six) return undefined;
  const embedded = embeddedV4(six);
  return embedded ? { family: 4, bytes: embedded } : { family: 6, bytes: six };
};

const startsWith = (bytes: number[], prefix: number[]) => prefix.every((b, i) => bytes[i] === b);

/** The IPv4 address inside an IPv4-mapped, NAT64 (64:ff9b::/96) or 6to4 (2002::/16) address. */
const embeddedV4 = (b: number[]): number[] | undefined => {
  if (startsWith(b, [...zeros(10), 0xff, 0xff])) return b.slice(12);
  if (startsWith(b, [0x00, 0x64, 0xff, 0x9b, ...zeros(8)])) return b.slice(12);
  if (startsWith(b, [0x20, 0x02])) return b.slice(2, 6);
  return undefined;
};

/** Whether the first `bits` bits of `bytes` equal those of `net`. */
export const inPrefix = (bytes: number[], net: number[], bits: number) => {
  for (let i = 0; i < bits; i += 8) {
    const take = Math.min(8, bits - i);
    const mask = (0xff << (8 - take)) & 0xff;
    if (((bytes[i / 8] ?? 0) & mask) !== ((net[i / 8] ?? 0) & mask)) return false;
  }
  return true;
};

type Range = [net: number[], bits: number, kind: Exclude<AddressClass, "public">];

const V4: Range[] = [
  [[0, 0, 0, 0], 8, "unspecified"],
  [[10, 0, 0, 0], 8, "private"],
  [[100, 64, 0, 0], 10, "cgnat"],
  [[127, 0, 0, 0], 8, "loopback"],
  [[169, 254, 0, 0], 16, "link-local"],
  [[172, 16, 0, 0], 12, "private"],
  [[192, 0, 0, 0], 24, "reserved"],
  [[192, 0, 2, 0], 24, "reserved"],
  [[192, 88, 99, 0], 24, "reserved"],
  [[192, 168, 0, 0], 16, "private"],
  [[198, 18, 0, 0], 15, "reserved"],
  [[198, 51, 100, 0], 24, "reserved"],
  [[203, 0, 113, 0], 24, "reserved"],
  [[224, 0, 0, 0], 4, "multicast"],
  [[240, 0, 0, 0], 4, "reserved"],
];

const V6: Range[] = [
  [zeros(16), 128, "unspecified"],
  [[...zeros(15), 1], 128, "loopback"],
  // IPv4-compatible (deprecated) ::a.b.c.d
  [zeros(16), 96, "reserved"],
  [[0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], 48, "private"],
  [[0x01, 0x00, ...zeros(6)], 64, "reserved"],
  [[0x20, 0x01, 0x00, 0x00], 23, "reserved"],
  [[0x20, 0x01, 0x0d, 0xb8], 32, "reserved"],
  [[0xfc], 7, "unique-local"],
  [[0xfe, 0x80], 10, "link-local"],
  [[0xfe, 0xc0], 10, "private"],
  [[0xff], 8, "multicast"],
];

/** The class of an IP address (any textual form Node accepts); "reserved" for what is not one. */
export const classifyAddress = (address: string): AddressClass => {
  const parsed = addressBytes(address);
  if (!parsed) return "reserved";
  const ranges = parsed.family === 4 ? V4 : V6;
  const hit = ranges.find(([net, bits]) => inPrefix(parsed.bytes, net, bits));
  return hit ? hit[2] : "public";
};
