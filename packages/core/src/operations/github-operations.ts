/**
 * AWF's eight github operations over the GitHub REST API: the base URL an operator
 * setting, the token the workflow's `GITHUB_TOKEN` (sent only to that base URL), the
 * repository from `repo` or the workspace's remote. Outputs are AWF's names; an API error
 * fails the attempt with GitHub's status and message.
 */
import { AppError, isAppError } from "../errors/app-error";
import type { FetchLike } from "../egress/egress-fetch";
import type { OperationResult } from "../workflow/model/engine-ports";
import { BATCH_STRATEGIES, type OperationName } from "../workflow/model/operation-catalog";
import { readCapped, requestFailure } from "./http-request";
import { resolveRepo, type RepoRef } from "./github-repo";

type GithubDeps = {
  fetch: FetchLike;
  /** The API's base URL (SWITCHYARD_GITHUB_API_URL), e.g. https://api.github.com. */
  apiUrl: string;
  token?: string;
  gitRemote: () => Promise<string | undefined>;
  signal: AbortSignal;
};

type Call = { method: string; path: string; status: number };
type Api = {
  call: (
    method: string,
    path: string,
    body?: unknown,
  ) => Promise<{ status: number; json: unknown }>;
  calls: Call[];
};

const API_TIMEOUT_S = 30;

const apiOf = (deps: GithubDeps): Api => {
  const calls: Call[] = [];
  const base = deps.apiUrl.replace(/\/+$/, "");
  const call = async (method: string, path: string, body?: unknown) => {
    const timer = AbortSignal.timeout(API_TIMEOUT_S * 1000);
    let status: number;
    let text: string;
    try {
      const res = await deps.fetch(`${base}${path}`, {
        method,
        headers: {
          Accept: "application/vnd.github+json",
          "X-GitHub-Api-Version": "2022-11-28",
          "User-Agent": "switchyard",
          ...(deps.token ? { Authorization: `Bearer ${deps.token}` } : {}),
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.any([deps.signal, timer]),
      });
      status = res.status;
      ({ text } = await readCapped(res, 8 * 1024 * 1024));
    } catch (error) {
      const failure = requestFailure(
        error,
        `GitHub ${method} ${path}`,
        timer.aborted && !deps.signal.aborted,
        API_TIMEOUT_S,
      );
      throw new AppError(failure.code, failure.message);
    }
    calls.push({ method, path, status });
    let json: unknown;
    try {
      json = text === "" ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status, json };
  };
  return { call, calls };
};

const field = (v: unknown, key: string): unknown =>
  v && typeof v === "object" ? (v as Record<string, unknown>)[key] : undefined;

const apiError = (method: string, path: string, status: number, json: unknown) => {
  const message = field(json, "message");
  return new AppError(
    "EXECUTION.OPERATION_FAILED",
    `GitHub answered ${status} to ${method} ${path}${typeof message === "string" ? `: ${message.slice(0, 300)}` : ""}`,
  );
};

const expectOk = async (api: Api, method: string, path: string, body?: unknown) => {
  const { status, json } = await api.call(method, path, body);
  if (status < 200 || status > 299) throw apiError(method, path, status, json);
  return json;
};

const labelNames = (labels: unknown): string[] =>
  Array.isArray(labels)
    ? labels.map((l: unknown) => {
        const name = typeof l === "string" ? l : field(l, "name");
        return typeof name === "string" ? name : "";
      })
    : [];

/** Keeps only the `fields` asked for (AWF's `fields` input of the get operations). */
const pick = (outputs: Record<string, unknown>, fields: unknown) =>
  Array.isArray(fields) && fields.length
    ? Object.fromEntries(Object.entries(outputs).filter(([k]) => fields.includes(k)))
    : outputs;

const one = async (
  api: Api,
  name: Exclude<OperationName, "github.batch" | "http.request" | "notify.send">,
  repo: RepoRef,
  inputs: Record<string, unknown>,
): Promise<Record<string, unknown>> => {
  const r = `/repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.repo)}`;
  const n = Number(inputs.number);
  switch (name) {
    case "github.get_issue": {
      const j = await expectOk(api, "GET", `${r}/issues/${n}`);
      return pick(
        {
          number: field(j, "number"),
          title: field(j, "title"),
          body: field(j, "body") ?? "",
          state: field(j, "state"),
          labels: labelNames(field(j, "labels")),
        },
        inputs.fields,
      );
    }
    case "github.get_pr": {
      const j = await expectOk(api, "GET", `${r}/pulls/${n}`);
      return pick(
        {
          number: field(j, "number"),
          title: field(j, "title"),
          body: field(j, "body") ?? "",
          state: field(j, "state"),
          headRefName: field(field(j, "head"), "ref"),
          baseRefName: field(field(j, "base"), "ref"),
          mergeable: field(j, "mergeable") ?? null,
          mergedAt: field(j, "merged_at") ?? null,
          labels: labelNames(field(j, "labels")),
        },
        inputs.fields,
      );
    }
    case "github.create_issue": {
      const j = await expectOk(api, "POST", `${r}/issues`, {
        title: inputs.title,
        ...(inputs.body === undefined ? {} : { body: inputs.body }),
        ...(inputs.labels === undefined ? {} : { labels: inputs.labels }),
        ...(inputs.assignees === undefined ? {} : { assignees: inputs.assignees }),
      });
      return { number: field(j, "number"), url: field(j, "html_url") };
    }
    case "github.create_pr": {
      const path = `${r}/pulls`;
      const { status, json } = await api.call("POST", path, {
        title: inputs.title,
        head: inputs.head,
        base: inputs.base,
        ...(inputs.body === undefined ? {} : { body: inputs.body }),
        ...(inputs.draft === undefined ? {} : { draft: inputs.draft }),
      });
      if (status >= 200 && status <= 299)
        return {
          number: field(json, "number"),
          url: field(json, "html_url"),
          already_exists: false,
        };
      // GitHub refuses a second open pull request for the same head and base: AWF answers with the open one.
      if (status === 422 && /already exists/i.test(JSON.stringify(json ?? ""))) {
        const head = String(inputs.head).includes(":")
          ? String(inputs.head)
          : `${repo.owner}:${String(inputs.head)}`;
        const q = `?state=open&head=${encodeURIComponent(head)}&base=${encodeURIComponent(String(inputs.base))}`;
        const list = await expectOk(api, "GET", `${path}${q}`);
        const open = Array.isArray(list) ? (list[0] as unknown) : undefined;
        if (open)
          return {
            number: field(open, "number"),
            url: field(open, "html_url"),
            already_exists: true,
          };
      }
      throw apiError("POST", path, status, json);
    }
    case "github.add_labels": {
      const j = await expectOk(api, "POST", `${r}/issues/${n}/labels`, { labels: inputs.labels });
      return { labels: labelNames(j) };
    }
    case "github.add_comment": {
      const j = await expectOk(api, "POST", `${r}/issues/${n}/comments`, { body: inputs.body });
      return { comment_id: field(j, "id"), url: field(j, "html_url") };
    }
    case "github.list_comments": {
      const limit =
        typeof inputs.limit === "number" ? Math.min(Math.max(inputs.limit, 1), 100) : 100;
      const j = await expectOk(api, "GET", `${r}/issues/${n}/comments?per_page=${limit}`);
      const comments = (Array.isArray(j) ? j : []).map((c: unknown) => ({
        id: field(c, "id"),
        author: field(field(c, "user"), "login"),
        body: field(c, "body"),
        created_at: field(c, "created_at"),
        url: field(c, "html_url"),
      }));
      return { comments, total: comments.length };
    }
    default: {
      const never: never = name;
      return never;
    }
  }
};

type Single = Parameters<typeof one>[1];

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

const batch = async (
  api: Api,
  deps: GithubDeps,
  inputs: Record<string, unknown>,
): Promise<{ outputs: Record<string, unknown>; error?: string }> => {
  const ops = (inputs.operations as unknown[]).map(
    (o: unknown) => (o ?? {}) as Record<string, unknown>,
  );
  const strategy = (inputs.strategy as string | undefined) ?? "best_effort";
  if (!(BATCH_STRATEGIES as readonly string[]).includes(strategy))
    throw new AppError("USER.INPUT.VALIDATION_FAILED", `unknown batch strategy "${strategy}"`);
  const concurrency = Math.max(1, typeof inputs.concurrency === "number" ? inputs.concurrency : 3);
  const results = new Array<Record<string, unknown> | undefined>(ops.length);
  let next = 0;
  let stop = false;
  const worker = async () => {
    while (!stop && next < ops.length) {
      const i = next++;
      const { name, ...rest } = ops[i]!;
      try {
        const repo = await resolveRepo(rest.repo, deps.gitRemote);
        const outputs = await one(api, String(name) as Single, repo, rest);
        results[i] = { name, success: true, outputs };
      } catch (error) {
        results[i] = { name, success: false, error: messageOf(error) };
        if (strategy === "all_succeed") stop = true;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, ops.length) }, worker));
  const done = results.filter((r): r is Record<string, unknown> => r !== undefined);
  const succeeded = done.filter((r) => r.success).length;
  const failed = done.length - succeeded;
  const outputs = { total: done.length, succeeded, failed, results: done };
  if (strategy === "all_succeed" && failed > 0)
    return { outputs, error: `github.batch (all_succeed): ${failed} of ${ops.length} failed` };
  if (strategy === "any_succeed" && succeeded === 0)
    return { outputs, error: `github.batch (any_succeed): none of ${ops.length} succeeded` };
  return { outputs };
};

export const githubOperation = async (
  deps: GithubDeps,
  name: OperationName,
  inputs: Record<string, unknown>,
): Promise<OperationResult> => {
  const api = apiOf(deps);
  const summary = () => api.calls.map((c) => `${c.method} ${c.path} → ${c.status}`).join("\n");
  try {
    if (name === "github.batch") {
      const { outputs, error } = await batch(api, deps, inputs);
      return {
        outputs,
        summary: summary(),
        ...(error ? { error: { code: "EXECUTION.OPERATION_FAILED", message: error } } : {}),
      };
    }
    const repo = await resolveRepo(inputs.repo, deps.gitRemote);
    const outputs = await one(api, name as Single, repo, inputs);
    return { outputs, summary: summary() };
  } catch (error) {
    return {
      outputs: {},
      summary: summary(),
      error: {
        code: isAppError(error) ? error.code : "EXECUTION.OPERATION_FAILED",
        message: messageOf(error),
      },
    };
  }
};
