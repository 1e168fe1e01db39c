/**
 * A webhook trigger's input map: input name -> an RFC 6901 JSON pointer into the request
 * body. The mapped values go over the trigger's default inputs; a pointer that finds
 * nothing leaves the default in place.
 */
import { AppError } from "../errors/app-error";

const INPUT_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

const tokens = (pointer: string) =>
  pointer === ""
    ? []
    : pointer
        .slice(1)
        .split("/")
        .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));

/** Whether `pointer` is a syntactically valid JSON pointer ("" is the whole document). */
const isPointer = (pointer: string) =>
  pointer === "" || (pointer.startsWith("/") && !/~[^01]|~$/.test(pointer));

/** The value `pointer` points at in `doc`, or undefined when there is none. */
export const resolvePointer = (doc: unknown, pointer: string): unknown => {
  let here: unknown = doc;
  for (const token of tokens(pointer)) {
    if (Array.isArray(here)) {
      if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
      here = here[Number(token)];
    } else if (
      here !== null &&
      typeof here === "object" &&
      Object.prototype.hasOwnProperty.call(here, token)
    ) {
      here = (here as Record<string, unknown>)[token];
    } else {
      return undefined;
    }
  }
  return here;
};

/** Throws USER.INPUT.VALIDATION_FAILED naming the entry of a bad input name or pointer. */
export const checkInputMap = (inputMap: Record<string, string>) => {
  for (const [name, pointer] of Object.entries(inputMap)) {
    if (!INPUT_NAME.test(name)) {
      throw new AppError(
        "USER.INPUT.VALIDATION_FAILED",
        `input name "${name}" must start with a letter or _ and use letters, digits, _ and -`,
        { location: { path: `inputMap.${name}` } },
      );
    }
    if (!isPointer(pointer)) {
      throw new AppError(
        "USER.INPUT.VALIDATION_FAILED",
        `"${pointer}" is not a JSON pointer (RFC 6901): it starts with / and escapes ~ as ~0 and / as ~1`,
        { location: { path: `inputMap.${name}` } },
      );
    }
  }
  return inputMap;
};

/** The run's inputs: the defaults, with each mapped value found in `body` over them. */
export const mapInputs = (
  defaults: Record<string, unknown>,
  inputMap: Record<string, string>,
  body: unknown,
): Record<string, unknown> => {
  const inputs: Record<string, unknown> = { ...defaults };
  for (const [name, pointer] of Object.entries(inputMap)) {
    const value = resolvePointer(body, pointer);
    if (value !== undefined) inputs[name] = value;
  }
  return inputs;
};
