import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { keyringOf, parseMasterKey } from "./credential-envelope";
import { openModelKey, sealModelKey } from "./model-key-envelope";
import { openVariable } from "./variable-envelope";

const ring = keyringOf(parseMasterKey("k1", randomBytes(32).toString("base64")));
const owner = { teamId: "team_a", credentialId: "cred_1", vendor: "anthropic" };
const key = "sk-ant-api03-secret-value";

describe("model key envelopes", () => {
  it("opens for the team, credential and vendor it was sealed for", () => {
    expect(openModelKey(ring, owner, sealModelKey(ring, owner, key))).toBe(key);
  });

  it("does not open for another team, credential or vendor, nor as a variable of the vendor's name", () => {
    const sealed = sealModelKey(ring, owner, key);
    for (const other of [{ teamId: "team_b" }, { credentialId: "cred_2" }, { vendor: "openai" }]) {
      expect(() => openModelKey(ring, { ...owner, ...other }, sealed)).toThrow(
        expect.objectContaining({ code: "SYSTEM.CREDENTIAL_UNREADABLE" }),
      );
    }
    expect(() =>
      openVariable(ring, { teamId: "team_a", credentialId: "cred_1", name: "anthropic" }, sealed),
    ).toThrow(expect.objectContaining({ code: "SYSTEM.CREDENTIAL_UNREADABLE" }));
  });
});
