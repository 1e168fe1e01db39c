/**
 * The workflow-pack operations (AWF's packs, installed by the team): their request and
 * response shapes, from which the tRPC procedures, the REST routes and the OpenAPI
 * document are derived. Every member reads them; members install, update and remove them.
 */
import { z } from "zod";
import { PACK_ARCHIVE_LIMITS } from "@switchyard/core/packs";
import { BODY_LIMITS } from "../http/body-limit";
import { operation } from "./operation";
import { timestamp } from "./timestamp";
import { diagnostic } from "./workflows.types";

const packName = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[a-z][a-z0-9-]*$/, "lowercase letters, digits and -, starting with a letter");
export const packNameInput = z.object({ name: packName });
export const installPackInput = z
  .object({
    archive: z
      .base64()
      .max(Math.ceil((PACK_ARCHIVE_LIMITS.compressedBytes * 4) / 3) + 4)
      .optional()
      .describe("the pack's .tar.gz, base64-encoded"),
    source: z
      .string()
      .max(250)
      .optional()
      .describe("a GitHub release to download instead: owner/repo or owner/repo@1.2.0"),
    tokenSecret: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .describe(
        "with source: the team secret variable holding a GitHub token, for a private repository (sent to the GitHub API only)",
      ),
  })
  .refine((v) => (v.archive === undefined) !== (v.source === undefined), {
    message: "give either archive or source",
  })
  .refine((v) => v.tokenSecret === undefined || v.source !== undefined, {
    message: "tokenSecret goes with source",
    path: ["tokenSecret"],
  });

const packWorkflow = z.object({
  id: z.string(),
  name: z.string().describe("`<pack>/<workflow>`"),
});
export const packSummary = z.object({
  name: z.string(),
  description: z.string(),
  source: z.string().describe('"upload", or the GitHub repository it came from'),
  version: z.string().nullable().describe("the manifest's version of the current install"),
  number: z.number().int().nullable().describe("the install's number (1 for the first)"),
  installedAt: timestamp.nullable(),
  workflows: z.array(packWorkflow),
});
export const packList = z.array(packSummary);
export const packDetail = packSummary.extend({
  readme: z.string(),
  author: z.string(),
  license: z.string(),
  awfVersion: z.string(),
  plugins: z.record(z.string(), z.string()),
  versions: z.array(
    z.object({ number: z.number().int(), version: z.string(), createdAt: timestamp }),
  ),
});
export const installPackResponse = z.object({
  name: z.string(),
  version: z.string(),
  number: z.number().int(),
  workflows: z.array(
    packWorkflow.extend({ version: z.number().int().describe("the workflow's version number") }),
  ),
  warnings: z.array(diagnostic).describe("plugins the pack asks for, and workflow warnings"),
});

export const packOperations = {
  list: operation({
    kind: "query",
    access: "team",
    output: packList,
    rest: {
      method: "GET",
      path: "/packs",
      summary: "The team's workflow packs with their current versions and workflows",
      status: 200,
      description: "Packs",
      wrap: "packs",
      response: z.object({ packs: packList }),
    },
  }),
  get: operation({
    kind: "query",
    access: "team",
    input: packNameInput,
    output: packDetail,
    rest: {
      method: "GET",
      path: "/packs/{name}",
      summary: "A workflow pack's manifest, README, workflows and versions",
      status: 200,
      description: "The pack",
    },
  }),
  install: operation({
    kind: "mutation",
    access: "team",
    role: "member",
    lane: "the saveRoles of each pack workflow's lane",
    input: installPackInput,
    output: installPackResponse,
    rest: {
      method: "POST",
      path: "/packs",
      summary:
        "Members: install a workflow pack, or update an installed one, from its .tar.gz or a GitHub release; each pack workflow gets a new version",
      body: installPackInput,
      status: 201,
      description: "Installed",
      errors: {
        400: "The archive or its manifest does not read (USER.PACK.*); details.errors lists every problem",
        409: "The pack's name collides with the team's own workflows",
        422: "A pack workflow does not validate; details.diagnostics lists every problem",
      },
      bodyLimit: BODY_LIMITS.pack,
    },
  }),
  remove: operation({
    kind: "mutation",
    access: "team",
    role: "member",
    input: packNameInput,
    output: z.object({ name: z.string(), workflowsArchived: z.number().int() }),
    rest: {
      method: "DELETE",
      path: "/packs/{name}",
      summary: "Members: remove a workflow pack; its workflows are archived (their runs stay)",
      status: 200,
      description: "Removed",
    },
  }),
};
