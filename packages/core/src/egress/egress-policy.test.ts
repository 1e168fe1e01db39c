/**
 * The egress rule as one table of addresses: each written the ways a URL or a DNS answer
 * may write it, with the class it is and whether a request may reach it with no allow-list
 * and with an operator's list.
 */
import { describe, expect, it } from "vitest";
import { classifyAddress } from "./address-class";
import {
  ANY_DESTINATION,
  checkEgressUrl,
  judgeConnection,
  parseEgressAllowList,
  type EgressAllowList,
} from "./egress-policy";

const none = parseEgressAllowList("");
const operator = parseEgressAllowList(
  "10.20.0.0/16, fd12:3456::/32 models.internal,*.corp.example",
);

/** [as a URL host, class, allowed with the operator's list] */
const TABLE: [string, string, boolean][] = [
  ["127.0.0.1", "loopback", false],
  ["127.1", "loopback", false],
  ["2130706433", "loopback", false],
  ["0x7f000001", "loopback", false],
  ["0177.0.0.1", "loopback", false],
  ["0x7f.0.0.1", "loopback", false],
  ["[::1]", "loopback", false],
  ["[0:0:0:0:0:0:0:1]", "loopback", false],
  ["[::ffff:127.0.0.1]", "loopback", false],
  ["[::ffff:7f00:1]", "loopback", false],
  ["0.0.0.0", "unspecified", false],
  ["0", "unspecified", false],
  ["[::]", "unspecified", false],
  ["10.0.0.1", "private", false],
  ["10.20.3.4", "private", true],
  ["172.16.0.1", "private", false],
  ["172.31.255.255", "private", false],
  ["192.168.1.1", "private", false],
  ["169.254.169.254", "link-local", false],
  ["2852039166", "link-local", false],
  ["[::ffff:169.254.169.254]", "link-local", false],
  ["[::ffff:a9fe:a9fe]", "link-local", false],
  ["[64:ff9b::a9fe:a9fe]", "link-local", false],
  ["[64:ff9b::169.254.169.254]", "link-local", false],
  ["[2002:a9fe:a9fe::1]", "link-local", false],
  ["[fe80::1]", "link-local", false],
  ["[fd00:ec2::254]", "unique-local", false],
  ["[fd12:3456::1]", "unique-local", true],
  ["[fc00::1]", "unique-local", false],
  ["100.64.0.1", "cgnat", false],
  ["100.100.100.200", "cgnat", false],
  ["192.0.0.170", "reserved", false],
  ["198.18.0.1", "reserved", false],
  ["[2001:db8::1]", "reserved", false],
  ["[2001::1]", "reserved", false],
  ["[::127.0.0.1]", "reserved", false],
  ["224.0.0.1", "multicast", false],
  ["[ff02::1]", "multicast", false],
  ["255.255.255.255", "reserved", false],
  ["240.0.0.1", "reserved", false],
  ["8.8.8.8", "public", true],
  ["172.32.0.1", "public", true],
  ["100.128.0.1", "public", true],
  ["[2606:4700:4700::1111]", "public", true],
  ["[::ffff:8.8.8.8]", "public", true],
];

const hostOf = (host: string) => new URL(`https://${host}/`).hostname;
const allowed = (list: EgressAllowList, host: string, protocol = "https:") => {
  try {
    checkEgressUrl(list, `${protocol}//${host}/`);
    return true;
  } catch {
    return false;
  }
};

describe("the egress rule", () => {
  it.each(TABLE)("%s is %s", (host, kind, withList) => {
    const address = hostOf(host);
    expect(classifyAddress(address)).toBe(kind);
    expect(allowed(none, host)).toBe(kind === "public");
    expect(allowed(operator, host)).toBe(withList);
    // The same judgement where a DNS answer gives the address for a name.
    expect(
      judgeConnection(none, {
        hostname: "some.example",
        address: address.replace(/^\[|\]$/g, ""),
        protocol: "https:",
      }) === undefined,
    ).toBe(kind === "public");
  });

  it("names what it refused and why, never more than the URL held", () => {
    expect(() => checkEgressUrl(none, "https://169.254.169.254/latest/meta-data/")).toThrow(
      /169\.254\.169\.254: it is a link-local address/,
    );
    const refused = judgeConnection(none, {
      hostname: "db.example",
      address: "10.1.2.3",
      protocol: "https:",
    });
    expect(refused?.code).toBe("USER.EGRESS.DENIED");
    expect(refused?.message).toContain("db.example: it resolves to a private network address");
    expect(refused?.message).not.toContain("10.1.2.3");
    expect(refused?.details).toEqual({ host: "db.example", reason: "private" });
  });

  it("takes https only, and plain http only to what the operator lists", () => {
    expect(() => checkEgressUrl(none, "ftp://example.com/")).toThrow(/only https URLs/);
    expect(() => checkEgressUrl(none, "file:///etc/passwd")).toThrow(/only https URLs/);
    expect(() => checkEgressUrl(none, "http://example.com/")).toThrow(/plain http is allowed only/);
    expect(() => checkEgressUrl(none, "https://user:pw@example.com/")).toThrow(
      /user name or password/,
    );
    expect(allowed(operator, "models.internal", "http:")).toBe(true);
    expect(allowed(operator, "a.b.corp.example", "http:")).toBe(true);
    expect(
      judgeConnection(operator, {
        hostname: "corp.example.evil.com",
        address: "8.8.8.8",
        protocol: "http:",
      })?.details,
    ).toMatchObject({ reason: "plain-http" });
    expect(allowed(parseEgressAllowList("*.corp.example"), "corp.example.evil.com", "http:")).toBe(
      false,
    );
    // Plain http to a name needs the name listed, even where it would resolve into a listed CIDR.
    expect(allowed(operator, "x.example", "http:")).toBe(false);
    expect(allowed(operator, "10.20.0.9", "http:")).toBe(true);
    expect(
      judgeConnection(operator, { hostname: "x.example", address: "8.8.8.8", protocol: "http:" })
        ?.details,
    ).toMatchObject({ reason: "plain-http" });
    expect(
      judgeConnection(operator, {
        hostname: "MODELS.internal.",
        address: "10.9.9.9",
        protocol: "http:",
      }),
    ).toBeUndefined();
  });

  it("refuses an allow-list it cannot read, naming the entry", () => {
    expect(() => parseEgressAllowList("10.0.0.0/33")).toThrow(
      /"10.0.0.0\/33" has a prefix length out of range/,
    );
    expect(() => parseEgressAllowList("::ffff:10.0.0.1")).toThrow(/write it in IPv4 form/);
    expect(() => parseEgressAllowList("http://x.example")).toThrow(
      /neither an address, a CIDR nor a host name/,
    );
    expect(parseEgressAllowList("127.0.0.0/8 ::1").cidrs).toHaveLength(2);
  });

  it("lets a person's own run (ANY_DESTINATION) reach loopback, private addresses and plain http names", () => {
    for (const target of [
      { hostname: "127.0.0.1", address: "127.0.0.1", protocol: "http:" },
      { hostname: "localhost", address: "::1", protocol: "http:" },
      { hostname: "nas.home", address: "192.168.1.4", protocol: "http:" },
    ])
      expect(judgeConnection(ANY_DESTINATION, target)).toBeUndefined();
    expect(checkEgressUrl(ANY_DESTINATION, "http://localhost:8080/x").host).toBe("localhost:8080");
    expect(() => checkEgressUrl(ANY_DESTINATION, "file:///etc/passwd")).toThrow(/only https URLs/);
  });
});
