/**
 * The shortest secret value Switchyard accepts. A secret is redacted wherever it (or an
 * encoding of it) shows up, so finding it must mean it is the secret: a shorter value
 * matches ordinary output (a port, a year, a word), which redacting it would garble, and
 * its encodings are too short to tell from chance. From 8 characters up, every encoded
 * form the scrubber matches (base64 at any alignment is the shortest) is at least 10 long.
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
