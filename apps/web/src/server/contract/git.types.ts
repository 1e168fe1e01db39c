/**
 * Request and response shapes of the team's linked git repositories (workflows synced from
 * git), shared by the tRPC procedures, the REST routes and the generated OpenAPI document.
 */
import { z } from "zod";
import { operation } from "./operation";
import { timestamp } from "./timestamp";
import { diagnostic } from "./workflows.types";

export const linkGitSourceInput = z.object({
  url: z
    .string()
    .min(1)
    .max(2048)
    .describe(
      "https URL of the repository (http only to a host the egress allow-list names), or a local path under SWITCHYARD_GIT_LOCAL_ROOTS",
    ),
  branch: z.string().min(1).max(200).default("main"),
  folder: z
    .string()
    .max(300)
    .default("")
    .describe("the folder whose *.yaml files are workflows; empty for the root"),
  token: z
    .string()
    .max(4096)
    .optional()
    .describe("an access token that may read the repository; stored sealed, never shown again"),
  username: z
    .string()
    .max(100)
    .regex(/^[^:\s]*$/, "no colon or space")
    .optional()
    .describe("the user name sent with the token (x-access-token unless set; GitLab: oauth2)"),
  syncIntervalMinutes: z
    .number()
    .int()
    .min(5)
    .max(7 * 24 * 60)
    .nullable()
    .optional()
    .describe(
      "sync on a schedule every so many minutes; null or unset: on demand and by webhook only",
    ),
});

export const gitFileResult = z.object({
  path: z.string().describe("the workflow file's path in the repository"),
  workflow: z.string().nullable(),
  status: z
    .enum(["saved", "unchanged", "invalid", "removed"])
    .describe(
      "saved: a new version; unchanged: the current version already has it; invalid: not saved, the current version stays; removed: the file is gone, the workflow archived",
    ),
  version: z.number().int().nullable(),
  diagnostics: z
    .array(diagnostic)
    .describe("invalid: every problem, with line and column; else warnings"),
});

export const gitSyncReport = z.object({
  status: z.enum(["ok", "invalid", "failed"]),
  commit: z.string().nullable().describe("the commit id read"),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  files: z.array(gitFileResult),
});

export const gitSource = z.object({
  id: z.string(),
  url: z.string(),
  branch: z.string(),
  folder: z.string(),
  username: z.string(),
  hasToken: z.boolean(),
  syncIntervalMinutes: z.number().int().nullable(),
  nextSyncAt: timestamp.nullable(),
  syncing: z.boolean(),
  lastSyncAt: timestamp.nullable(),
  lastCommit: z.string().nullable(),
  lastStatus: z.enum(["ok", "invalid", "failed"]).nullable(),
  lastError: z.string().nullable(),
  lastFiles: z.array(gitFileResult),
  webhookPath: z
    .string()
    .describe(
      "push webhooks: POST here (under the dashboard's address), signed with the webhook secret",
    ),
  workflows: z.array(z.object({ id: z.string(), name: z.string(), path: z.string().nullable() })),
  createdAt: timestamp,
});

export const gitSourceIdInput = z.object({ id: z.string().min(1) });

export const gitOperations = {
  list: operation({
    kind: "query",
    access: "team",
    output: z.array(gitSource),
    rest: {
      method: "GET",
      path: "/git-sources",
      summary: "The team's linked git repositories, with their last sync per file",
      status: 200,
      description: "Git repositories",
      wrap: "sources",
    },
  }),
  get: operation({
    kind: "query",
    access: "team",
    input: gitSourceIdInput,
    output: gitSource,
    rest: {
      method: "GET",
      path: "/git-sources/{id}",
      summary: "A linked git repository, with its last sync per file",
      status: 200,
      description: "The git repository",
    },
  }),
  /** The webhook secret is in this answer only. */
  link: operation({
    kind: "mutation",
    access: "team",
    role: "admin",
    input: linkGitSourceInput,
    output: z.object({
      source: gitSource,
      webhookSecret: z.string().describe("the push webhook's secret, shown only in this answer"),
    }),
    rest: {
      method: "POST",
      path: "/git-sources",
      body: linkGitSourceInput,
      summary:
        "Admins: link a git repository whose folder's *.yaml files become the team's workflows (read-only in the editor); the token is stored sealed, the webhook secret is in this answer only",
      status: 201,
      description: "Linked",
      errors: {
        400: "The URL, branch or folder is refused (USER.GIT.INVALID_SOURCE, USER.EGRESS.DENIED)",
      },
    },
  }),
  sync: operation({
    kind: "mutation",
    access: "team",
    role: "member",
    lane: "the saveRoles of each synced workflow's lane, for the caller",
    input: gitSourceIdInput,
    output: gitSyncReport,
    rest: {
      method: "POST",
      path: "/git-sources/{id}/sync",
      summary:
        "Members: sync now; each workflow file that validates gets a new version with the commit id, one that does not keeps its current version and is reported with every problem's line and column",
      status: 200,
      description: "What the sync did, per file",
      errors: { 409: "A sync of this repository is running (USER.GIT.SYNC_RUNNING)" },
    },
  }),
  unlink: operation({
    kind: "mutation",
    access: "team",
    role: "admin",
    input: gitSourceIdInput,
    output: z.object({ id: z.string() }),
    rest: {
      method: "DELETE",
      path: "/git-sources/{id}",
      summary:
        "Admins: unlink a git repository; its token and webhook secret are deleted, its workflows stay as the team's own (editable)",
      status: 200,
      description: "Unlinked",
    },
  }),
};
