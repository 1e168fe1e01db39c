/**
 * The OperationPort over a caller's network: the worker gives its egress-guarded fetches,
 * the workspace's git remote and a sink for desktop notifications (a run event). Each
 * built-in operation is dispatched to its module; an operation that throws fails its
 * attempt with the error's code.
 */
import { isAppError } from "../errors/app-error";
import type { FetchLike } from "../egress/egress-fetch";
import type {
  OperationPort,
  OperationRequest,
  OperationResult,
} from "../workflow/model/engine-ports";
import { isOperationName } from "../workflow/model/operation-catalog";
import { githubOperation } from "./github-operations";
import { httpRequest } from "./http-request";
import { notifySend, type DesktopNotification, type ShowDesktop } from "./notify-send";

type OperationPortDeps = {
  /** For http.request and the GitHub API: redirects followed, no size limit of its own. */
  fetch: FetchLike;
  /** For notify.send's webhook: ten seconds, no redirects. */
  notifyFetch: FetchLike;
  githubApiUrl: string;
  /**
   * The GitHub token when the workflow's `env` has no GITHUB_TOKEN (`switchyard run`: the
   * person's environment, then `gh auth token`, as AWF looks); none: unauthenticated.
   */
  githubToken?: () => Promise<string | undefined>;
  /** The workspace's `origin` remote URL, when it has one. */
  gitRemote: () => Promise<string | undefined>;
  desktop: (
    request: OperationRequest,
    notification: DesktopNotification,
  ) => ReturnType<ShowDesktop>;
};

const run = async (deps: OperationPortDeps, req: OperationRequest): Promise<OperationResult> => {
  const { operation, inputs, signal } = req;
  if (!isOperationName(operation))
    return {
      outputs: {},
      error: { code: "EXECUTION.OPERATION_FAILED", message: `unknown operation "${operation}"` },
    };
  if (operation === "http.request") return httpRequest(deps.fetch, inputs, signal);
  if (operation === "notify.send")
    return notifySend(
      { fetch: deps.notifyFetch, desktop: (n) => deps.desktop(req, n) },
      inputs,
      {
        workflow: req.workflow.name,
        duration: `${Math.round(req.workflow.durationMs / 1000)}s`,
        outputs: req.workflow.outputs,
        status: req.workflow.status,
      },
      signal,
    );
  return githubOperation(
    {
      fetch: deps.fetch,
      apiUrl: deps.githubApiUrl,
      token: req.env.GITHUB_TOKEN || (await deps.githubToken?.()) || undefined,
      gitRemote: deps.gitRemote,
      signal,
    },
    operation,
    inputs,
  );
};

export const createOperationPort = (deps: OperationPortDeps): OperationPort => ({
  execute: async (req) => {
    try {
      return await run(deps, req);
    } catch (error) {
      return {
        outputs: {},
        error: {
          code: isAppError(error) ? error.code : "EXECUTION.OPERATION_FAILED",
          message: error instanceof Error ? error.message : String(error),
        },
      };
    }
  },
});
