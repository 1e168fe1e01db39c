/**
 * What a team variable may be: its name is an environment variable name, its value at most
 * 64 KiB, a secret's value long enough to redact, and only a secret has lanes. Checked
 * before anything is stored or sealed.
 */
import { AppError } from "../errors/app-error";
import { checkSecretLength } from "./secret-length";

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const MAX_VALUE = 64 * 1024;

export const checkVariable = (input: {
  name: string;
  value: string;
  secret: boolean;
  lanes?: readonly string[];
}): void => {
  if (!NAME.test(input.name)) {
    throw new AppError(
      "USER.INPUT.VALIDATION_FAILED",
      `"${input.name}" is not a variable name (letters, digits and _, not starting with a digit)`,
      { location: { path: "name" } },
    );
  }
  if (Buffer.byteLength(input.value) > MAX_VALUE) {
    throw new AppError("USER.INPUT.VALIDATION_FAILED", "a variable's value is at most 64 KiB", {
      location: { path: "value" },
    });
  }
  if (input.secret) checkSecretLength(input.value);
  if (!input.secret && input.lanes && input.lanes.length > 0) {
    throw new AppError(
      "USER.INPUT.VALIDATION_FAILED",
      "only a secret has lanes; a plain variable is readable in every lane",
      { location: { path: "lanes" } },
    );
  }
};
