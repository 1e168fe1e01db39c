/**
 * A JSON Schema as a compact tree: each field with its type, whether it is required, its
 * limits and description, and the fields of nested objects (and array items) below it.
 */
import type { JsonSchema } from "./operations";

const MAX_DEPTH = 8;

const refName = (ref: string) => ref.split("/").at(-1) ?? ref;

const variantsOf = (schema: JsonSchema) => schema.anyOf ?? schema.oneOf ?? null;

/** A one-line type: `string (date-time)`, `array of object`, `"a" | "b"`, `integer | null`. */
export const typeLabel = (schema: JsonSchema): string => {
  if (schema.$ref) return refName(schema.$ref);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  const variants = variantsOf(schema);
  if (variants) return [...new Set(variants.map(typeLabel))].join(" | ");
  if (schema.allOf) return schema.allOf.map(typeLabel).join(" & ");
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return "any";
  return types
    .map((t) => {
      if (t === "array") return `array of ${schema.items ? typeLabel(schema.items) : "any"}`;
      if (t === "string" && schema.format) return `string (${schema.format})`;
      if (
        t === "object" &&
        !schema.properties &&
        schema.additionalProperties &&
        typeof schema.additionalProperties === "object"
      )
        return `map of ${typeLabel(schema.additionalProperties)}`;
      return t;
    })
    .join(" | ");
};

const limitsOf = (schema: JsonSchema) => {
  const parts: string[] = [];
  if (schema.minimum !== undefined) parts.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined) parts.push(`≤ ${schema.maximum}`);
  if (schema.minLength !== undefined && schema.minLength > 0)
    parts.push(`min length ${schema.minLength}`);
  if (schema.maxLength !== undefined) parts.push(`max length ${schema.maxLength}`);
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  return parts.join(", ");
};

/** The object whose fields show below a field: its own, its items', or its one object variant's. */
const nestedOf = (schema: JsonSchema): JsonSchema | null => {
  if (schema.properties) return schema;
  if (schema.items) return nestedOf(schema.items);
  const variants = variantsOf(schema);
  if (variants) {
    const objects = variants.filter((v) => v.properties || v.items);
    if (objects.length === 1) return nestedOf(objects[0]!);
  }
  if (schema.additionalProperties && typeof schema.additionalProperties === "object")
    return nestedOf(schema.additionalProperties);
  return null;
};

function Fields({ schema, depth }: { schema: JsonSchema; depth: number }) {
  const required = new Set(schema.required ?? []);
  const entries = Object.entries(schema.properties ?? {});
  if (entries.length === 0) return <p className="muted small">an object with no fixed fields</p>;
  return (
    <ul className="schema-tree">
      {entries.map(([name, field]) => (
        <Field key={name} name={name} schema={field} required={required.has(name)} depth={depth} />
      ))}
    </ul>
  );
}

function Field({
  name,
  schema,
  required,
  depth,
}: {
  name: string;
  schema: JsonSchema;
  required: boolean;
  depth: number;
}) {
  const nested = depth < MAX_DEPTH ? nestedOf(schema) : null;
  const limits = limitsOf(schema);
  return (
    <li>
      <code className="schema-name">{name}</code>{" "}
      <span className="schema-type">{typeLabel(schema)}</span>
      {required ? <span className="schema-required"> required</span> : null}
      {limits ? <span className="muted small"> · {limits}</span> : null}
      {schema.description ? (
        <div className="schema-desc muted small">{schema.description}</div>
      ) : null}
      {nested ? <Fields schema={nested} depth={depth + 1} /> : null}
    </li>
  );
}

export function SchemaTree({ schema }: { schema: JsonSchema }) {
  const nested = nestedOf(schema);
  return (
    <div className="schema">
      <p className="small">
        <span className="schema-type">{typeLabel(schema)}</span>
        {schema.description ? <span className="muted"> · {schema.description}</span> : null}
      </p>
      {nested ? <Fields schema={nested} depth={0} /> : null}
    </div>
  );
}
