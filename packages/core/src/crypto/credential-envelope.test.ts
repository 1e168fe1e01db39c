import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AppError } from "../errors/app-error";
import { keyringOf, openSecret, parseMasterKey, sealSecret } from "./credential-envelope";

const k1 = parseMasterKey("k1", randomBytes(32).toString("base64"));
const k2 = parseMasterKey("k2", randomBytes(32).toString("base64"));
const owner = { teamId: "team_a", credentialId: "cred_1", name: "API_TOKEN" };

describe("credential envelopes", () => {
  it("round-trips a secret and never holds it in clear", () => {
    const ring = keyringOf(k1);
    const env = sealSecret(ring, owner, "sk-live-äöü-123");
    expect(env.keyId).toBe("k1");
    for (const part of [env.ciphertext, env.wrappedKey])
      expect(part.toString("utf8")).not.toContain("sk-live");
    expect(openSecret(ring, owner, env)).toBe("sk-live-äöü-123");
  });

  it("uses a fresh data key and IV each time", () => {
    const ring = keyringOf(k1);
    const a = sealSecret(ring, owner, "same");
    const b = sealSecret(ring, owner, "same");
    expect(a.ciphertext.equals(b.ciphertext)).toBe(false);
    expect(a.wrappedKey.equals(b.wrappedKey)).toBe(false);
  });

  it("does not open for another team or credential, nor when altered", () => {
    const ring = keyringOf(k1);
    const env = sealSecret(ring, owner, "secret");
    expect(() => openSecret(ring, { ...owner, teamId: "team_b" }, env)).toThrow(AppError);
    expect(() => openSecret(ring, { ...owner, credentialId: "cred_2" }, env)).toThrow(
      /could not be opened/,
    );
    expect(() => openSecret(ring, { ...owner, name: "OTHER_TOKEN" }, env)).toThrow(
      /could not be opened/,
    );
    const tampered = { ...env, ciphertext: Buffer.from(env.ciphertext) };
    tampered.ciphertext[0]! ^= 1;
    expect(() => openSecret(ring, owner, tampered)).toThrow(/could not be opened/);
  });

  it("opens envelopes sealed under an older key after rotation, and seals under the new one", () => {
    const old = sealSecret(keyringOf(k1), owner, "before");
    const rotated = keyringOf(k2, [k1]);
    expect(openSecret(rotated, owner, old)).toBe("before");
    expect(sealSecret(rotated, owner, "after").keyId).toBe("k2");
    expect(() => openSecret(keyringOf(k2), owner, old)).toThrow(/no master key "k1"/);
  });

  it("opens an envelope sealed before names were bound only when asked for that format", () => {
    const ring = keyringOf(k1);
    const old = sealSecret(ring, owner, "legacy", 1);
    expect(() => openSecret(ring, owner, old)).toThrow(/could not be opened/);
    expect(openSecret(ring, owner, old, 1)).toBe("legacy");
    // the old format never bound the name: any name opens it, which is why it is re-sealed
    expect(openSecret(ring, { ...owner, name: "ELSEWHERE" }, old, 1)).toBe("legacy");
    expect(() => openSecret(ring, owner, sealSecret(ring, owner, "new"), 1)).toThrow(
      /could not be opened/,
    );
  });

  it("refuses a master key of the wrong size", () => {
    expect(() => parseMasterKey("k", Buffer.alloc(16).toString("base64"))).toThrow(/32 bytes/);
  });
});
