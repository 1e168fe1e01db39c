/**
 * Where a notification may be sent: what the egress rule allows (https to a public address,
 * or what the operator's SWITCHYARD_EGRESS_ALLOW names, plain http included), and no
 * credentials in the URL. Checked when an endpoint is saved; the worker's fetch checks again
 * at every delivery, at the address it connects to.
 */
import { checkEgressUrlAt, type EgressAllowList } from "../egress/egress-policy";
import { AppError } from "../errors/app-error";

/** The URL as it will be called; throws USER.INPUT.VALIDATION_FAILED or USER.EGRESS.DENIED (path "url") otherwise. */
export const checkEndpointUrl = (text: string, allow: EgressAllowList) => {
  const refuse = (why: string) =>
    new AppError("USER.INPUT.VALIDATION_FAILED", why, { location: { path: "url" } });
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw refuse(`"${text}" is not a URL`);
  }
  if (url.username || url.password)
    throw refuse(
      "the URL must not carry a user name or password; the signature authenticates the sender",
    );
  checkEgressUrlAt(allow, url);
  return url.toString();
};
