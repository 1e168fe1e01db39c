/**
 * Where a notification may be sent: an https URL, or plain http to this machine's loopback
 * (for a receiver beside the server), never http across a network, and no credentials in it.
 */
import { AppError } from "../errors/app-error";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The URL as it will be called; throws USER.INPUT.VALIDATION_FAILED (path "url") otherwise. */
export const checkEndpointUrl = (text: string) => {
  const refuse = (why: string) => new AppError("USER.INPUT.VALIDATION_FAILED", why, { location: { path: "url" } });
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw refuse(`"${text}" is not a URL`);
  }
  if (url.username || url.password) throw refuse("the URL must not carry a user name or password; the signature authenticates the sender");
  if (url.protocol === "https:") return url.toString();
  if (url.protocol === "http:" && LOOPBACK.has(url.hostname)) return url.toString();
  throw refuse("use an https URL (plain http is allowed only to localhost, 127.0.0.1 or [::1])");
};
