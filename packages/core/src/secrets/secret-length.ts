/**
 * The shortest secret value Switchyard accepts. A secret is redacted wherever its text (or
 * an encoding of it) shows up, so finding it must mean it is the secret: a shorter value
 * matches ordinary output (a port, a year, a word) and would leave the secret in clear
 * wherever it is not redacted and garble what is. From 8 characters up, every form the
 * scrubber matches, base64 at any alignment included, is at least 10 characters long.
 */
import { AppError } from "../errors/app-error";

export const MIN_SECRET_LENGTH = 8;

/** Throws USER.SECRET_TOO_SHORT for a value too short to redact reliably; `path` names the field. */
export const checkSecretLength = (value: string, path = "value"): void => {
  const length = [...value].length;
  if (length >= MIN_SECRET_LENGTH) return;
  throw new AppError(
    "USER.SECRET_TOO_SHORT",
    `a secret must be at least ${MIN_SECRET_LENGTH} characters long to be redacted reliably from run output; this one has ${length}`,
    { location: { path } },
  );
};
