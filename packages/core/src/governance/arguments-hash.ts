/**
 * The hash an approval binds to: SHA-256 (hex) of a call's arguments in RFC 8785 canonical
 * JSON (sorted keys, no insignificant whitespace, canonical numbers). Only a call whose
 * arguments hash the same runs under an approval.
 */
import { createHash } from "node:crypto";
import { canonicalJson } from "../replay/canonical-json";

export const argumentsHash = (args: unknown): string =>
  createHash("sha256").update(canonicalJson(args), "utf8").digest("hex");
