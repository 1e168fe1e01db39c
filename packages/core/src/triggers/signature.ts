/**
 * The signature of a webhook, both ways (inbound triggers and outbound notifications):
 * `X-Switchyard-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`,
 * keyed with the signing secret. Verifying compares in constant time and refuses a
 * timestamp more than five minutes from now, so a captured request cannot be replayed later;
 * within those five minutes the receiver remembers each delivery it accepted (what
 * verifying returns names it) and refuses it a second time.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { AppError } from "../errors/app-error";

export const SIGNATURE_HEADER = "X-Switchyard-Signature";
/** How far a signature's timestamp may be from the receiver's clock. */
const SIGNATURE_TOLERANCE_S = 300;

const hmac = (secret: string, t: number, body: string | Uint8Array) =>
  createHmac("sha256", secret).update(`${t}.`).update(body).digest("hex");

/** A fresh signing secret (shown once, then kept sealed), after `prefix` and an underscore. */
export const newSigningSecret = (prefix = "whsec") =>
  `${prefix}_${randomBytes(24).toString("base64url")}`;

/** The header value for `body` signed now (or at `at`, unix seconds). */
export const signatureHeader = (
  secret: string,
  body: string | Uint8Array,
  at: number = Math.floor(Date.now() / 1000),
) => `t=${at},v1=${hmac(secret, at, body)}`;

const refuse = (
  code:
    | "USER.WEBHOOK.SIGNATURE_MISSING"
    | "USER.WEBHOOK.SIGNATURE_INVALID"
    | "USER.WEBHOOK.SIGNATURE_EXPIRED",
  message: string,
) => new AppError(code, message);

/**
 * The parts of a header; throws USER.WEBHOOK.SIGNATURE_MISSING when there is none and
 * USER.WEBHOOK.SIGNATURE_INVALID when it does not read as `t=...,v1=...`.
 */
const parseHeader = (header: string | null | undefined) => {
  if (!header || header.trim() === "")
    throw refuse(
      "USER.WEBHOOK.SIGNATURE_MISSING",
      `send the ${SIGNATURE_HEADER} header (t=<unix seconds>,v1=<hex HMAC-SHA256>)`,
    );
  let t: number | undefined;
  const v1: string[] = [];
  for (const part of header.split(",")) {
    const [key, value = ""] = part.trim().split("=", 2) as [string, string?];
    if (key === "t" && /^\d{1,12}$/.test(value)) t = Number(value);
    if (key === "v1" && /^[0-9a-f]{64}$/i.test(value)) v1.push(value.toLowerCase());
  }
  if (t === undefined || v1.length === 0)
    throw refuse(
      "USER.WEBHOOK.SIGNATURE_INVALID",
      `${SIGNATURE_HEADER} must read t=<unix seconds>,v1=<64 hex digits>`,
    );
  return { t, v1 };
};

/** A verified delivery: its timestamp, the v1 that matched, and the unix second from which its signature is refused as expired. */
export type SignedDelivery = { t: number; v1: string; expiresAt: number };

/**
 * Checks `header` against `body` and `secret`; throws USER.WEBHOOK.SIGNATURE_MISSING,
 * USER.WEBHOOK.SIGNATURE_EXPIRED (timestamp too far from `now`) or USER.WEBHOOK.SIGNATURE_INVALID.
 * Answers which delivery it is: the same signed request sent again answers the same.
 */
export const verifySignature = (input: {
  secret: string;
  header: string | null | undefined;
  body: string | Uint8Array;
  /**
   * The current time in Unix seconds.
   * @default Math.floor(Date.now() / 1000)
   */
  now?: number;
  /**
   * How far the signed timestamp may be from `now`, in seconds.
   * @default SIGNATURE_TOLERANCE_S (300)
   */
  toleranceS?: number;
}): SignedDelivery => {
  const { t, v1 } = parseHeader(input.header);
  const now = input.now ?? Math.floor(Date.now() / 1000);
  const tolerance = input.toleranceS ?? SIGNATURE_TOLERANCE_S;
  if (Math.abs(now - t) > tolerance) {
    throw refuse(
      "USER.WEBHOOK.SIGNATURE_EXPIRED",
      "the signature's timestamp is more than five minutes from the server's clock; sign with the current time",
    );
  }
  const expected = Buffer.from(hmac(input.secret, t, input.body), "hex");
  const match = v1.find((candidate) => timingSafeEqual(Buffer.from(candidate, "hex"), expected));
  if (!match)
    throw refuse(
      "USER.WEBHOOK.SIGNATURE_INVALID",
      "the signature does not match the body and this trigger's signing secret",
    );
  return { t, v1: match, expiresAt: t + tolerance + 1 };
};
