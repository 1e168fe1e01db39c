import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { keyringOf, parseMasterKey } from "./credential-envelope";
import { openConnectorCredential, sealConnectorCredential } from "./connector-credential-envelope";

const keyring = keyringOf(parseMasterKey("k1", randomBytes(32).toString("base64")));
const owner = { teamId: "t1", credentialId: "cred_1", connector: "linear", owner: "team" };

describe("connector credential envelopes", () => {
  it("open for the connector and owner they were sealed for, and for no other", () => {
    const envelope = sealConnectorCredential(keyring, owner, "lin_api_value_0123456789");
    expect(openConnectorCredential(keyring, owner, envelope)).toBe("lin_api_value_0123456789");
    for (const other of [
      { ...owner, owner: "user_2" },
      { ...owner, connector: "github" },
      { ...owner, teamId: "t2" },
      { ...owner, credentialId: "cred_2" },
    ]) {
      expect(() => openConnectorCredential(keyring, other, envelope)).toThrow(
        expect.objectContaining({ code: "SYSTEM.CREDENTIAL_UNREADABLE" }),
      );
    }
  });
});
