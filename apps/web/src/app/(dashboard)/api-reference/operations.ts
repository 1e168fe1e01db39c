/**
 * Reads the served OpenAPI document into what the API reference page shows: operations
 * grouped by their path's first segment, each with its parameters, body and response
 * schemas, error statuses, and a curl example that runs as is once SWITCHYARD_URL,
 * SWITCHYARD_TOKEN and the path's variables are set.
 */

export type JsonSchema = {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  $ref?: string;
  additionalProperties?: boolean | JsonSchema;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
};

type Content = { content?: Record<string, { schema?: JsonSchema }> };
type RawOperation = {
  summary?: string;
  parameters?: { name: string; in: string; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { required?: boolean } & Content;
  responses?: Record<string, { description?: string } & Content>;
};
export type OpenApiDocument = {
  paths: Record<string, Record<string, RawOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
};

export type Operation = {
  id: string;
  method: string;
  path: string;
  summary: string;
  parameters: { name: string; in: string; required: boolean; schema: JsonSchema }[];
  body?: { required: boolean; contentType: string; schema: JsonSchema };
  success: { status: string; description: string; contentType: string; schema?: JsonSchema }[];
  errors: { status: string; description: string }[];
  curl: string;
};

export type OperationGroup = { name: string; operations: Operation[] };

const METHOD_ORDER = ["get", "post", "put", "patch", "delete"];

/** `/runs/{id}/events` → `runs`. */
export const groupOf = (path: string) => path.split("/").find((s) => s !== "") ?? "api";

/** `{stepId}` → `STEP_ID`, a shell variable name. */
const shellVar = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9_]/g, "_")
    .toUpperCase();

/** A small example value for a schema: required fields only, first enum value, defaults where given. */
export const exampleOf = (schema: JsonSchema | undefined, depth = 0): unknown => {
  if (!schema || depth > 5) return null;
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return exampleOf(variants.find((v) => v.type !== "null") ?? variants[0], depth + 1);
  if (schema.allOf?.[0]) return exampleOf(schema.allOf[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type ?? "") {
    case "object": {
      const required = new Set(schema.required ?? []);
      const entries = Object.entries(schema.properties ?? {}).filter(([name]) =>
        required.has(name),
      );
      return Object.fromEntries(entries.map(([name, s]) => [name, exampleOf(s, depth + 1)]));
    }
    case "array":
      return [];
    case "string":
      return schema.format === "date-time" ? "2026-01-01T00:00:00Z" : "string";
    case "integer":
    case "number":
      return schema.minimum ?? 0;
    case "boolean":
      return false;
    default:
      return null;
  }
};

const scalarText = (value: unknown) =>
  typeof value === "string" || typeof value === "number" || typeof value === "boolean"
    ? String(value)
    : "";

const quoteShell = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export const curlOf = (method: string, path: string, op: RawOperation): string => {
  const url = `$SWITCHYARD_URL/api/v1${path.replace(/\{([^}]+)\}/g, (_, name: string) => `$${shellVar(name)}`)}`;
  const query = (op.parameters ?? []).filter((p) => p.in === "query" && p.required);
  const fullUrl =
    query.length > 0
      ? `${url}?${query.map((p) => `${p.name}=${scalarText(exampleOf(p.schema))}`).join("&")}`
      : url;
  const bodySchema = op.requestBody?.content?.["application/json"]?.schema;
  const stream =
    Object.values(op.responses ?? {}).some((r) => r.content && "text/event-stream" in r.content) ||
    /event-stream/i.test(op.summary ?? "");
  const lines = [
    `curl${stream ? " -N" : ""}${method === "GET" ? "" : ` -X ${method}`} "${fullUrl}"`,
    `  -H "Authorization: Bearer $SWITCHYARD_TOKEN"`,
  ];
  if (bodySchema) {
    lines.push(`  -H "Content-Type: application/json"`);
    lines.push(`  -d ${quoteShell(JSON.stringify(exampleOf(bodySchema)))}`);
  }
  return lines.join(" \\\n");
};

const firstContent = (content: Content["content"]) => {
  const [contentType, media] = Object.entries(content ?? {})[0] ?? [];
  return contentType ? { contentType, schema: media?.schema } : undefined;
};

export const readOperations = (doc: OpenApiDocument): OperationGroup[] => {
  const groups = new Map<string, Operation[]>();
  const paths = Object.keys(doc.paths).sort();
  for (const path of paths) {
    const methods = Object.keys(doc.paths[path]!).sort(
      (a, b) => METHOD_ORDER.indexOf(a) - METHOD_ORDER.indexOf(b),
    );
    for (const method of methods) {
      const op = doc.paths[path]![method]!;
      const upper = method.toUpperCase();
      const responses = Object.entries(op.responses ?? {});
      const body = op.requestBody ? firstContent(op.requestBody.content) : undefined;
      const operation: Operation = {
        id: `${method}-${path.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "")}`,
        method: upper,
        path,
        summary: op.summary ?? "",
        parameters: (op.parameters ?? []).map((p) => ({
          name: p.name,
          in: p.in,
          required: p.required ?? false,
          schema: p.schema ?? {},
        })),
        ...(body?.schema
          ? {
              body: {
                required: op.requestBody?.required ?? false,
                contentType: body.contentType,
                schema: body.schema,
              },
            }
          : {}),
        success: responses
          .filter(([status]) => status.startsWith("2"))
          .map(([status, r]) => {
            const content = firstContent(r.content);
            return {
              status,
              description: r.description ?? "",
              contentType: content?.contentType ?? "",
              ...(content?.schema ? { schema: content.schema } : {}),
            };
          }),
        errors: responses
          .filter(([status]) => !status.startsWith("2"))
          .map(([status, r]) => ({ status, description: r.description ?? "" })),
        curl: curlOf(upper, path, op),
      };
      const group = groupOf(path);
      groups.set(group, [...(groups.get(group) ?? []), operation]);
    }
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, operations]) => ({ name, operations }));
};
