/**
 * The step-template operations (AWF's `use_template` library, kept by the team): their
 * request and response shapes, from which the tRPC procedures, the REST routes and the
 * OpenAPI document are derived. Every member reads them; members save and delete them.
 */
import { z } from "zod";
import { operation } from "./operation";
import { timestamp } from "./timestamp";
import { diagnostic } from "./workflows.types";

const templateName = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z_][A-Za-z0-9_-]*$/, "letters, digits, _ or -");
export const templateNameInput = z.object({ name: templateName });
export const templateBody = z.object({
  content: z
    .string()
    .max(256 * 1024)
    .describe("the template file's YAML (AWF's template form)"),
  description: z.string().max(500).default(""),
});
export const saveTemplateInput = templateBody.extend({ name: templateName });

const templateParameter = z.object({
  name: z.string(),
  required: z.boolean(),
  default: z.unknown().optional(),
});
export const templateSummary = z.object({
  name: z.string(),
  description: z.string(),
  version: z.number().int().nullable(),
  parameters: z.array(templateParameter).describe("empty when the current version does not read"),
  updatedAt: timestamp,
});
export const templateList = z.array(templateSummary);
export const templateDetail = templateSummary.extend({
  content: z.string(),
  versions: z.array(z.object({ number: z.number().int(), createdAt: timestamp })),
});
export const saveTemplateResponse = z.object({
  name: z.string(),
  version: z.number().int(),
  created: z.boolean().describe("false when the text was unchanged and no version was made"),
});
export const validateTemplateResponse = z.object({
  ok: z.boolean(),
  errors: z.array(diagnostic),
});

export const templateOperations = {
  list: operation({
    kind: "query",
    access: "team",
    output: templateList,
    rest: {
      method: "GET",
      path: "/templates",
      summary: "The team's step templates with their current versions and parameters",
      status: 200,
      description: "Templates",
      wrap: "templates",
      response: z.object({ templates: templateList }),
    },
  }),
  get: operation({
    kind: "query",
    access: "team",
    input: templateNameInput,
    output: templateDetail,
    rest: {
      method: "GET",
      path: "/templates/{name}",
      summary: "A step template's current text, parameters and versions",
      status: 200,
      description: "The template",
    },
  }),
  validate: operation({
    kind: "mutation",
    access: "team",
    input: saveTemplateInput,
    output: validateTemplateResponse,
    rest: {
      method: "POST",
      path: "/templates/{name}/validate",
      summary: "Validate a template file without saving it",
      body: templateBody,
      status: 200,
      description: "Diagnostics",
    },
  }),
  save: operation({
    kind: "mutation",
    access: "team",
    role: "member",
    input: saveTemplateInput,
    output: saveTemplateResponse,
    rest: {
      method: "PUT",
      path: "/templates/{name}",
      summary:
        "Members: save a step template as a new version (workflows pick it up when they are saved again)",
      body: templateBody,
      status: 200,
      description: "Saved",
    },
  }),
  delete: operation({
    kind: "mutation",
    access: "team",
    role: "member",
    input: templateNameInput,
    output: z.object({ name: z.string() }),
    rest: {
      method: "DELETE",
      path: "/templates/{name}",
      summary: "Members: delete a step template (saved workflow versions keep their pinned copy)",
      status: 200,
      description: "Deleted",
    },
  }),
};
