import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { keyringOf, parseMasterKey, sealSecret } from "./credential-envelope";
import { newCredentialId, openVariable, resealVariable, sealVariable } from "./variable-envelope";

const k1 = parseMasterKey("k1", randomBytes(32).toString("base64"));
const k2 = parseMasterKey("k2", randomBytes(32).toString("base64"));
const owner = { teamId: "team_a", credentialId: "cred_1", name: "API_TOKEN" };
const value = "sk-live-value-1234";

describe("variable envelopes", () => {
  it("opens for the team, credential and name it was sealed for", () => {
    const ring = keyringOf(k1);
    expect(openVariable(ring, owner, sealVariable(ring, owner, value))).toBe(value);
  });

  it("does not open for another team, credential or variable name", () => {
    const ring = keyringOf(k1);
    const sealed = sealVariable(ring, owner, value);
    for (const other of [
      { teamId: "team_b" },
      { credentialId: "cred_2" },
      { name: "OTHER_TOKEN" },
    ]) {
      expect(() => openVariable(ring, { ...owner, ...other }, sealed)).toThrow(
        expect.objectContaining({ code: "SYSTEM.CREDENTIAL_UNREADABLE" }),
      );
    }
  });

  it("opens under a retired key while it is configured, and names a key that is gone", () => {
    const sealed = sealVariable(keyringOf(k1), owner, value);
    expect(openVariable(keyringOf(k2, [k1]), owner, sealed)).toBe(value);
    expect(() => openVariable(keyringOf(k2), owner, sealed)).toThrow(
      expect.objectContaining({ code: "SYSTEM.CREDENTIAL_KEY_MISSING" }),
    );
  });

  it("re-seals a format 1 envelope bound to its name under the current key", () => {
    const legacy = sealSecret(keyringOf(k1), { ...owner, name: "variable:API_TOKEN" }, value, 1);
    expect(() => openVariable(keyringOf(k1), owner, legacy)).toThrow(
      expect.objectContaining({ code: "SYSTEM.CREDENTIAL_UNREADABLE" }),
    );
    const ring = keyringOf(k2, [k1]);
    const resealed = resealVariable(ring, owner, legacy);
    expect(resealed.keyId).toBe("k2");
    expect(openVariable(keyringOf(k2), owner, resealed)).toBe(value);
    expect(() => openVariable(ring, { ...owner, name: "OTHER_TOKEN" }, resealed)).toThrow(
      expect.objectContaining({ code: "SYSTEM.CREDENTIAL_UNREADABLE" }),
    );
  });

  it("mints distinct credential ids", () => {
    expect(newCredentialId()).toMatch(/^cred_[0-9a-f]{24}$/);
    expect(newCredentialId()).not.toBe(newCredentialId());
  });
});
