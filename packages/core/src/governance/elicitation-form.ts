/**
 * A connector server's `elicitation/create` form as a wait carries it: the requested schema
 * read as the MCP spec restricts it (a flat object of strings, numbers, integers, booleans,
 * single-choice and multi-choice enums), and a person's answer checked against it. Fields
 * the person left out take the schema's defaults (SEP-1034), so an accept with nothing
 * filled in sends every default the server offered. A schema outside that subset, or an
 * answer that does not fit it, is refused with a code and the field it is about.
 */
import { z } from "zod";
import { AppError } from "../errors/app-error";

export type ElicitationField = {
  name: string;
  title?: string;
  description?: string;
  required: boolean;
} & (
  | {
      type: "string";
      minLength?: number;
      maxLength?: number;
      format?: "email" | "uri" | "date" | "date-time";
      default?: string;
    }
  | { type: "number" | "integer"; minimum?: number; maximum?: number; default?: number }
  | { type: "boolean"; default?: boolean }
  | { type: "enum"; options: { value: string; title: string }[]; default?: string }
  | {
      type: "multi";
      options: { value: string; title: string }[];
      minItems?: number;
      maxItems?: number;
      default?: string[];
    }
);

/** What an `elicitation` wait shows and keeps (scrubbed): the server's message and its form. */
export type ElicitationWaitDetail = {
  /** the connector's id (its slug) and the tool whose call asked */
  connector: string;
  tool: string;
  message: string;
  requestedSchema: Record<string, unknown>;
  fields: ElicitationField[];
  /** the step's state name (absent for a call made in the connector console) */
  state?: string;
};

/** An elicitation wait's answer, the spec's three actions. */
export const elicitationAnswerSchema = z
  .object({
    action: z.enum(["accept", "decline", "cancel"]),
    /** accept: the form's values (left-out fields take their defaults) */
    content: z.record(z.string().max(200), z.unknown()).optional(),
  })
  .strict();
export type ElicitationAnswer = z.infer<typeof elicitationAnswerSchema>;

const invalid = (path: string, message: string) =>
  new AppError("USER.ELICITATION.INVALID_SCHEMA", `the server's form: ${message}`, {
    location: { path },
  });

const text = (value: unknown) => (typeof value === "string" ? value : undefined);
const num = (value: unknown) =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;

const optionsOf = (
  def: Record<string, unknown>,
  path: string,
): { value: string; title: string }[] | undefined => {
  if (Array.isArray(def.enum)) {
    const names = Array.isArray(def.enumNames) ? def.enumNames : [];
    return def.enum.map((value, i) => {
      if (typeof value !== "string") throw invalid(path, "enum values must be strings");
      return { value, title: text(names[i]) ?? value };
    });
  }
  const choices = Array.isArray(def.oneOf) ? def.oneOf : Array.isArray(def.anyOf) ? def.anyOf : [];
  if (choices.length === 0) return undefined;
  return choices.map((choice: unknown) => {
    const c = (choice ?? {}) as Record<string, unknown>;
    if (typeof c.const !== "string") throw invalid(path, "each choice needs a string const");
    return { value: c.const, title: text(c.title) ?? c.const };
  });
};

const FORMATS = ["email", "uri", "date", "date-time"] as const;

const fieldOf = (name: string, raw: unknown, required: boolean): ElicitationField => {
  const path = `requestedSchema.properties.${name}`;
  if (!raw || typeof raw !== "object" || Array.isArray(raw))
    throw invalid(path, "each property must be an object");
  const def = raw as Record<string, unknown>;
  const base = {
    name,
    required,
    ...(text(def.title) ? { title: text(def.title)! } : {}),
    ...(text(def.description) ? { description: text(def.description)! } : {}),
  };
  switch (def.type) {
    case "string": {
      const options = optionsOf(def, path);
      if (options) {
        const d = text(def.default);
        return { ...base, type: "enum", options, ...(d !== undefined ? { default: d } : {}) };
      }
      const format = FORMATS.find((f) => f === def.format);
      const d = text(def.default);
      return {
        ...base,
        type: "string",
        ...(num(def.minLength) !== undefined ? { minLength: num(def.minLength)! } : {}),
        ...(num(def.maxLength) !== undefined ? { maxLength: num(def.maxLength)! } : {}),
        ...(format ? { format } : {}),
        ...(d !== undefined ? { default: d } : {}),
      };
    }
    case "number":
    case "integer": {
      const d = num(def.default);
      return {
        ...base,
        type: def.type,
        ...(num(def.minimum) !== undefined ? { minimum: num(def.minimum)! } : {}),
        ...(num(def.maximum) !== undefined ? { maximum: num(def.maximum)! } : {}),
        ...(d !== undefined ? { default: d } : {}),
      };
    }
    case "boolean":
      return {
        ...base,
        type: "boolean",
        ...(typeof def.default === "boolean" ? { default: def.default } : {}),
      };
    case "array": {
      const items = (def.items ?? {}) as Record<string, unknown>;
      const options = optionsOf(items, `${path}.items`);
      if (!options) throw invalid(path, "an array must be a choice of several (items with enum)");
      const d = Array.isArray(def.default)
        ? def.default.filter((v): v is string => typeof v === "string")
        : undefined;
      return {
        ...base,
        type: "multi",
        options,
        ...(num(def.minItems) !== undefined ? { minItems: num(def.minItems)! } : {}),
        ...(num(def.maxItems) !== undefined ? { maxItems: num(def.maxItems)! } : {}),
        ...(d ? { default: d } : {}),
      };
    }
    default:
      throw invalid(
        `${path}.type`,
        `"${String(def.type)}" is not a type a form can ask (string, number, integer, boolean, array of choices)`,
      );
  }
};

/** The form of a requested schema, field by field; refuses a schema outside the spec's subset. */
export const elicitationFields = (schema: unknown): ElicitationField[] => {
  if (!schema || typeof schema !== "object")
    throw invalid("requestedSchema", "it must be an object schema");
  const s = schema as Record<string, unknown>;
  if (s.type !== "object") throw invalid("requestedSchema.type", 'it must be "object"');
  const properties = (s.properties ?? {}) as Record<string, unknown>;
  const required = new Set(
    Array.isArray(s.required) ? s.required.filter((r) => typeof r === "string") : [],
  );
  return Object.entries(properties).map(([name, def]) => fieldOf(name, def, required.has(name)));
};

const refused = (field: string, message: string) =>
  new AppError("USER.ELICITATION.INVALID_ANSWER", `${field}: ${message}`, {
    location: { path: `content.${field}` },
  });

const checkValue = (field: ElicitationField, value: unknown): unknown => {
  const name = field.name;
  switch (field.type) {
    case "string": {
      if (typeof value !== "string") throw refused(name, "must be text");
      if (field.minLength !== undefined && value.length < field.minLength)
        throw refused(name, `must be at least ${field.minLength} characters`);
      if (field.maxLength !== undefined && value.length > field.maxLength)
        throw refused(name, `must be at most ${field.maxLength} characters`);
      if (field.format === "email" && !/^[^\s@]+@[^\s@]+$/.test(value))
        throw refused(name, "must be an email address");
      if (field.format === "uri" && !URL.canParse(value)) throw refused(name, "must be a URL");
      if (field.format === "date" && !/^\d{4}-\d{2}-\d{2}$/.test(value))
        throw refused(name, "must be a date (YYYY-MM-DD)");
      if (field.format === "date-time" && Number.isNaN(Date.parse(value)))
        throw refused(name, "must be a date and time");
      return value;
    }
    case "number":
    case "integer": {
      const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
      if (typeof n !== "number" || !Number.isFinite(n)) throw refused(name, "must be a number");
      if (field.type === "integer" && !Number.isInteger(n))
        throw refused(name, "must be a whole number");
      if (field.minimum !== undefined && n < field.minimum)
        throw refused(name, `must be at least ${field.minimum}`);
      if (field.maximum !== undefined && n > field.maximum)
        throw refused(name, `must be at most ${field.maximum}`);
      return n;
    }
    case "boolean":
      if (typeof value !== "boolean") throw refused(name, "must be true or false");
      return value;
    case "enum":
      if (typeof value !== "string" || !field.options.some((o) => o.value === value))
        throw refused(name, `must be one of ${field.options.map((o) => o.value).join(", ")}`);
      return value;
    case "multi": {
      if (!Array.isArray(value)) throw refused(name, "must be a list of choices");
      for (const v of value)
        if (typeof v !== "string" || !field.options.some((o) => o.value === v))
          throw refused(
            name,
            `must be chosen from ${field.options.map((o) => o.value).join(", ")}`,
          );
      if (field.minItems !== undefined && value.length < field.minItems)
        throw refused(name, `needs at least ${field.minItems} choices`);
      if (field.maxItems !== undefined && value.length > field.maxItems)
        throw refused(name, `takes at most ${field.maxItems} choices`);
      return value;
    }
  }
};

/**
 * An accepted form's content, checked field by field, with each left-out field's default
 * applied; a required field with neither a value nor a default, an unknown field, or a value
 * of the wrong kind is refused with USER.ELICITATION.INVALID_ANSWER naming the field.
 */
export const acceptedContent = (
  fields: readonly ElicitationField[],
  given: Record<string, unknown> = {},
): Record<string, unknown> => {
  for (const name of Object.keys(given))
    if (!fields.some((f) => f.name === name)) throw refused(name, "the form has no such field");
  const content: Record<string, unknown> = {};
  for (const field of fields) {
    const value = given[field.name] ?? field.default;
    if (value === undefined || value === null) {
      if (field.required) throw refused(field.name, "is required");
      continue;
    }
    content[field.name] = checkValue(field, value);
  }
  return content;
};
