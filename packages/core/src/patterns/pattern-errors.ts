/**
 * The errors a user- or model-supplied pattern (a regular expression or a glob) ends in
 * when it is refused or runs out of its time budget: one wording everywhere, naming the
 * budget, so a person can tell a slow pattern from a wrong one.
 */
import { AppError, type ErrorLocation } from "../errors/app-error";

const PATTERN_TIMEOUT = "USER.PATTERN.TIMEOUT";
export const PATTERN_TOO_COMPLEX = "USER.PATTERN.TOO_COMPLEX";
export const PATTERN_INVALID = "USER.PATTERN.INVALID";

/** `<subject>: pattern took longer than <budget> ms; <hint>` */
export const patternTimeout = (
  budgetMs: number,
  hint: string,
  where: { subject?: string; location?: ErrorLocation } = {},
): AppError =>
  new AppError(
    PATTERN_TIMEOUT,
    `${where.subject ? `${where.subject}: ` : ""}pattern took longer than ${budgetMs} ms; ${hint}`,
    { location: where.location },
  );

export const SLOW_REGEXP_HINT =
  "nested quantifiers such as (a+)+ backtrack exponentially on some inputs";
