/**
 * AWF's interactive input collection for `switchyard run`: when a required input was not
 * given with --input and stdin is a terminal, each input not given is asked for in turn, in
 * AWF's words (its type, whether required, its default, description, pattern, numbered
 * options for an enum of up to nine values), a wrong value is said and asked again, an
 * optional one is skipped with Enter. Ctrl+C and Ctrl+D end the collection. Without a
 * terminal the run is refused as AWF refuses it. The run then checks the values as it checks
 * --input ones.
 */
import { AppError } from "@switchyard/core/errors";
import {
  missingRequiredInputs,
  resolveInputs,
  type InputDefinition,
} from "@switchyard/core/workflow";

/** One line from the person, after `prompt`; undefined at end of input (Ctrl+D). Throws on Ctrl+C. */
export type LineReader = (prompt: string) => Promise<string | undefined>;

/** Thrown when the person ends the collection (AWF: exit 1). */
export const inputCancelled = (byUser: boolean) =>
  new AppError(
    "USER.INPUT.CANCELLED",
    byUser ? "input collection cancelled by user" : "input cancelled",
  );

export const NOT_A_TERMINAL =
  "missing required inputs and stdin is not a terminal; provide inputs via --input flags";

const MAX_NUMBERED = 9;
const TRUE_WORDS = ["true", "1", "t"];
const FALSE_WORDS = ["false", "0", "f"];

const shown = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/** `Enter value for 'timeout' (integer, optional, default: 300)` */
const headline = (def: InputDefinition) =>
  `Enter value for '${def.name}' (${def.type}, ${def.required ? "required" : "optional"}${
    def.default !== undefined ? `, default: ${shown(def.default)}` : ""
  })`;

/** The value as `--input` would give it, or AWF's complaint about it. */
const typedText = async (
  def: InputDefinition,
  text: string,
): Promise<{ value: string } | { error: string }> => {
  let value = text;
  if (def.type === "boolean") {
    const word = text.toLowerCase();
    if (TRUE_WORDS.includes(word)) value = "true";
    else if (FALSE_WORDS.includes(word)) value = "false";
    else return { error: `invalid boolean value "${text}" (use: true, false, 1, 0, t, f)` };
  }
  if (def.type === "integer" && !/^[+-]?\d+$/.test(text))
    return { error: `invalid integer value "${text}"` };
  if (def.type === "number" && (text.trim() === "" || !Number.isFinite(Number(text))))
    return { error: `invalid number value "${text}"` };
  const enumValues = def.validation.enum;
  if (enumValues && !enumValues.some((e) => String(e) === value))
    return { error: `value "${text}" not in allowed values` };
  const { errors } = await resolveInputs([{ ...def, required: false }], { [def.name]: value });
  const first = errors[0];
  if (!first) return { value };
  if (def.validation.pattern && first.message.includes("does not match pattern"))
    return { error: `value "${text}" does not match pattern "${def.validation.pattern}"` };
  return { error: first.message.replace(`inputs.${def.name}: `, "") };
};

/** Asks for one input until it has a value, or the person skips an optional one (undefined). */
const askOne = async (
  def: InputDefinition,
  read: LineReader,
  write: (text: string) => void,
): Promise<string | undefined> => {
  const lines = [headline(def)];
  if (def.description) lines.push(`Description: ${def.description}`);
  if (def.validation.pattern) lines.push(`Pattern: ${def.validation.pattern}`);
  const options = def.validation.enum?.map(String);
  const numbered = options && options.length > 0 && options.length <= MAX_NUMBERED;
  if (options && !numbered) lines.push(`Valid values: ${options.join(", ")}`);
  if (!def.required || def.default !== undefined)
    lines.push(def.default !== undefined ? "Press Enter to use default" : "Press Enter to skip");
  if (numbered) lines.push("Options:", ...options.map((o, i) => `  ${i + 1}. ${o}`));
  write(`\n${lines.join("\n")}\n`);
  for (;;) {
    const answer = await read(numbered ? `Select option (1-${options.length}): ` : "> ");
    if (answer === undefined) throw inputCancelled(false);
    const text = answer.trim();
    if (text === "" && (!def.required || def.default !== undefined)) {
      write(
        def.default !== undefined
          ? `✓ Using default: ${shown(def.default)}\n`
          : "✓ Skipped (no value provided)\n",
      );
      return undefined;
    }
    if (numbered) {
      const n = /^\d+$/.test(text) ? Number(text) : NaN;
      const picked = n >= 1 && n <= options.length ? options[n - 1] : undefined;
      if (picked === undefined) {
        write(`Error: invalid selection "${text}" (valid: 1-${options.length})\n\n`);
        continue;
      }
      write(`✓ Selected: ${picked}\n`);
      return picked;
    }
    const typed =
      text === "" ? { error: "a value is required" } : await typedText(def, answer.trim());
    if ("error" in typed) {
      write(`Error: ${typed.error}\n\n${headline(def)}\n`);
      continue;
    }
    write(def.default !== undefined ? `✓ Accepted: ${typed.value}\n` : "✓ Accepted\n");
    return typed.value;
  }
};

/**
 * The inputs to run with: `given` as it is when no required input is missing; else, from a
 * terminal, `given` and every input not given, asked for in declaration order; without one,
 * AWF's refusal (USER.INPUT.VALIDATION_FAILED).
 */
export const collectInputs = async (
  defs: InputDefinition[],
  given: Record<string, string>,
  terminal: { read: LineReader; write: (text: string) => void } | undefined,
): Promise<Record<string, string>> => {
  const missing = missingRequiredInputs(defs, given);
  if (missing.length === 0) return given;
  if (!terminal)
    throw new AppError("USER.INPUT.VALIDATION_FAILED", NOT_A_TERMINAL, {
      location: { path: `inputs.${missing[0]!.name}` },
    });
  const inputs = { ...given };
  for (const def of defs) {
    if (given[def.name] !== undefined) continue;
    const value = await askOne(def, terminal.read, terminal.write);
    if (value !== undefined) inputs[def.name] = value;
  }
  return inputs;
};
