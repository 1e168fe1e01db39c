/**
 * Checks the inputs a run is started with against the workflow's declaration before the
 * run is queued, so a caller hears at once which input is wrong (types, required, enum,
 * pattern, min and max) instead of finding a failed run. The worker resolves them again.
 */
import { AppError } from "../../errors/app-error";
import { resolveInputs } from "./resolve-inputs";
import type { InputDefinition } from "../model/workflow-types";

/** The first problem as the error, every problem in `details.problems`; undefined when they pass. */
export const checkStartInputs = async (
  defs: InputDefinition[],
  given: Record<string, unknown>,
): Promise<AppError | undefined> => {
  const { errors } = await resolveInputs(defs, given);
  const first = errors[0];
  if (!first) return undefined;
  if (errors.length === 1) return first;
  return new AppError(
    first.code,
    `${errors.length} inputs are invalid: ${errors.map((e) => e.message).join("; ")}`,
    {
      location: first.location,
      details: {
        problems: errors.map((e) => ({ code: e.code, message: e.message, path: e.location?.path })),
      },
    },
  );
};

/**
 * The required inputs neither given nor defaulted, in declaration order: what AWF prompts for
 * in a terminal, and what a run a trigger started waits for a person to fill in.
 */
export const missingRequiredInputs = (
  defs: InputDefinition[],
  given: Record<string, unknown>,
): InputDefinition[] =>
  defs.filter((d) => d.required && (given[d.name] ?? d.default) === undefined);
