import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AppError } from "../errors/app-error";
import { newSigningSecret, signatureHeader, verifySignature } from "./signature";

const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return "ok";
  } catch (e) {
    return e instanceof AppError ? e.code : "other";
  }
};

describe("webhook signatures", () => {
  const secret = newSigningSecret();
  const body = '{"ref":"main"}';
  const now = 1_800_000_000;

  it("signs as documented: HMAC-SHA256 of '<t>.<body>'", () => {
    const expected = createHmac("sha256", secret).update(`${now}.${body}`).digest("hex");
    expect(signatureHeader(secret, body, now)).toBe(`t=${now},v1=${expected}`);
  });

  it("verifies its own signature, within five minutes", () => {
    expect(
      codeOf(() =>
        verifySignature({ secret, body, header: signatureHeader(secret, body, now), now }),
      ),
    ).toBe("ok");
    expect(
      codeOf(() =>
        verifySignature({ secret, body, header: signatureHeader(secret, body, now - 299), now }),
      ),
    ).toBe("ok");
    expect(
      codeOf(() =>
        verifySignature({ secret, body, header: signatureHeader(secret, body, now - 301), now }),
      ),
    ).toBe("USER.WEBHOOK.SIGNATURE_EXPIRED");
    expect(
      codeOf(() =>
        verifySignature({ secret, body, header: signatureHeader(secret, body, now + 301), now }),
      ),
    ).toBe("USER.WEBHOOK.SIGNATURE_EXPIRED");
  });

  it("refuses another body, another secret, a missing or malformed header", () => {
    const header = signatureHeader(secret, body, now);
    expect(codeOf(() => verifySignature({ secret, body: '{"ref":"evil"}', header, now }))).toBe(
      "USER.WEBHOOK.SIGNATURE_INVALID",
    );
    expect(codeOf(() => verifySignature({ secret: newSigningSecret(), body, header, now }))).toBe(
      "USER.WEBHOOK.SIGNATURE_INVALID",
    );
    expect(codeOf(() => verifySignature({ secret, body, header: null, now }))).toBe(
      "USER.WEBHOOK.SIGNATURE_MISSING",
    );
    expect(codeOf(() => verifySignature({ secret, body, header: `t=${now},v1=zz`, now }))).toBe(
      "USER.WEBHOOK.SIGNATURE_INVALID",
    );
    expect(
      codeOf(() => verifySignature({ secret, body, header: `t=${now},v1=${"0".repeat(64)}`, now })),
    ).toBe("USER.WEBHOOK.SIGNATURE_INVALID");
  });

  it("accepts any one of several v1 values (secret rotation on the sender's side)", () => {
    const good = signatureHeader(secret, body, now).split("v1=")[1];
    expect(
      codeOf(() =>
        verifySignature({ secret, body, header: `t=${now},v1=${"a".repeat(64)},v1=${good}`, now }),
      ),
    ).toBe("ok");
  });

  it("names the delivery it verified: the same signed request gives the same name, until its signature expires", () => {
    const header = signatureHeader(secret, body, now - 10);
    const good = header.split("v1=")[1]!;
    const first = verifySignature({ secret, body, header, now });
    expect(first).toEqual({ t: now - 10, v1: good, expiresAt: now - 10 + 301 });
    expect(
      verifySignature({
        secret,
        body,
        header: `t=${now - 10},v1=${"a".repeat(64)},v1=${good.toUpperCase()}`,
        now: now + 5,
      }),
    ).toEqual(first);
    expect(codeOf(() => verifySignature({ secret, body, header, now: first.expiresAt }))).toBe(
      "USER.WEBHOOK.SIGNATURE_EXPIRED",
    );
    expect(codeOf(() => verifySignature({ secret, body, header, now: first.expiresAt - 1 }))).toBe(
      "ok",
    );
  });
});
