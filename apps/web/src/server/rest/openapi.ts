/**
 * The REST API's OpenAPI 3.1 description, served at /api/v1/openapi.json, generated from
 * the routes' own zod schemas (the contract's `.types.ts` files), so what is documented is
 * what a route parses and answers.
 */
import { z } from "zod";
import { TIMESTAMP_JSON_SCHEMA, timestamp } from "../contract/timestamp";
import { BODY_LIMITS } from "../http/body-limit";

/** What the document needs to know of one REST route. */
export type RestOperation = {
  method: string;
  /** the OpenAPI path, `{name}` for a path parameter */
  path: string;
  summary: string;
  body?: z.ZodType;
  status: number;
  description: string;
  response: z.ZodType;
  /** other success statuses, answered with the same `response`, with what they mean (a replayed start's 200) */
  otherSuccess?: Record<number, string>;
  /** statuses this route answers besides the common ones, with what they mean */
  errors?: Record<number, string>;
  /** bytes the request body may have (BODY_LIMITS.default when unset); an operation with a `body` answers 413 past it */
  bodyLimit?: number;
  /** query parameters: an object schema whose fields are each a string in the URL */
  query?: z.ZodObject<Record<string, z.ZodType>>;
  /** the success answer's media type when it is not JSON (an event stream, NDJSON): `response` then describes one message or line */
  mediaType?: string;
};

export const errorResponse = z.object({
  error: z.object({
    code: z
      .string()
      .describe("a code of the error table (packages/core/src/errors/error-codes.ts)"),
    message: z.string(),
    location: z
      .object({
        file: z.string(),
        line: z.number().int(),
        column: z.number().int(),
        path: z.string(),
      })
      .partial()
      .optional(),
    details: z.unknown().optional(),
  }),
});

/** A timestamp is a Date in the process and an ISO 8601 string in JSON: the document shows the string. */
const jsonOfTimestamp: NonNullable<Parameters<typeof z.toJSONSchema>[1]>["override"] = (ctx) => {
  if (ctx.zodSchema !== timestamp) return;
  const json = ctx.jsonSchema as Record<string, unknown>;
  for (const key of Object.keys(json)) delete json[key];
  Object.assign(json, TIMESTAMP_JSON_SCHEMA);
};

const schemaOf = (schema: z.ZodType, io: "input" | "output") => {
  const { $schema: _, ...json } = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    override: jsonOfTimestamp,
  });
  return json;
};
const json = (schema: object) => ({ content: { "application/json": { schema } } });
const error = { $ref: "#/components/schemas/Error" };
const COMMON_ERRORS: Record<number, string> = {
  400: "Bad input",
  401: "Missing or unknown token",
  403: "The token's member may not do this",
  404: "Not found in the token's team",
  503: "Unavailable for now (the run queue, say); retry after Retry-After seconds",
};

const mib = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;

export const buildOpenApiDocument = (operations: RestOperation[]) => {
  const paths: Record<string, Record<string, object>> = {};
  for (const op of operations) {
    const queryFields = op.query ? Object.entries(op.query.shape) : [];
    const parameters = [
      ...[...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => ({
        name: m[1]!,
        in: "path",
        required: true,
        schema: { type: "string" },
      })),
      ...queryFields.map(([name, field]) => ({
        name,
        in: "query",
        required: !field.safeParse(undefined).success,
        schema: schemaOf(field, "input"),
      })),
    ];
    const tooLarge: Record<number, string> = op.body
      ? {
          413: `The body is larger than ${mib(op.bodyLimit ?? BODY_LIMITS.default)} (PAYLOAD_TOO_LARGE)`,
        }
      : {};
    const errors = Object.fromEntries(
      Object.entries({ ...COMMON_ERRORS, ...tooLarge, ...op.errors }).map(
        ([status, description]) => [status, { description, ...json(error) }],
      ),
    );
    const success = (description: string) => ({
      description,
      ...(op.mediaType
        ? { content: { [op.mediaType]: { schema: schemaOf(op.response, "output") } } }
        : json(schemaOf(op.response, "output"))),
    });
    (paths[op.path] ??= {})[op.method.toLowerCase()] = {
      summary: op.summary,
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(op.body
        ? {
            requestBody: {
              required: !op.body.safeParse(undefined).success,
              ...json(schemaOf(op.body, "input")),
            },
          }
        : {}),
      responses: {
        [String(op.status)]: success(op.description),
        ...Object.fromEntries(
          Object.entries(op.otherSuccess ?? {}).map(([status, description]) => [
            status,
            success(description),
          ]),
        ),
        ...errors,
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Switchyard API",
      version: "1.0.0",
      description: "Workflows, runs, variables and API tokens of the team the token belongs to.",
    },
    servers: [{ url: "/api/v1" }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "an API token (sy_...) made in the dashboard",
        },
      },
      schemas: { Error: schemaOf(errorResponse, "output") },
    },
    paths,
  };
};
