/**
 * The operation states of `switchyard run`, as a person runs them on their own machine:
 * core's operations over a fetch with no egress rule (AWF filters nothing on a laptop;
 * loopback and plain http work) but with core's timeouts and size caps; the GitHub API at
 * SWITCHYARD_GITHUB_API_URL (else GitHub's), its token the workflow's GITHUB_TOKEN, else the
 * person's, else `gh auth token` when gh is on PATH (AWF's order), and the repository from
 * the step's `repo` or the workspace's `origin` remote. A desktop notification is a line on
 * stderr. Whatever is printed goes through the run's scrubber, the token included.
 */
import { execFile } from "node:child_process";
import { AppError } from "@switchyard/core/errors";
import {
  ANY_DESTINATION,
  createEgressFetch,
  EGRESS_PROFILES,
  type EgressFetch,
} from "@switchyard/core/egress";
import { createOperationPort, workspaceGitRemote } from "@switchyard/core/operations";
import type { Scrubber } from "@switchyard/core/secrets";
import type { OperationPort } from "@switchyard/core/workflow";
import type { Io } from "./validate-command";

export const GITHUB_API_URL = "https://api.github.com";
const GH_TIMEOUT_MS = 10_000;
/** What `gh` is given of the person's environment: where it keeps its login, and its host. */
const GH_ENV = ["PATH", "HOME", "LANG", "XDG_CONFIG_HOME", "GH_CONFIG_DIR", "GH_HOST"] as const;

/** `gh auth token`'s answer, or undefined when gh is missing, logged out or slow. */
const ghAuthToken = (env: NodeJS.ProcessEnv) =>
  new Promise<string | undefined>((resolve) => {
    const childEnv: NodeJS.ProcessEnv = {};
    for (const name of GH_ENV) if (env[name] !== undefined) childEnv[name] = env[name];
    execFile(
      "gh",
      ["auth", "token"],
      { env: childEnv, shell: false, timeout: GH_TIMEOUT_MS, killSignal: "SIGKILL" },
      (error, stdout) => resolve(error ? undefined : stdout.trim() || undefined),
    );
  });

export type LocalOperations = { port: OperationPort; close: () => Promise<void> };

/** What the operations get under --no-network: a refusal, before anything is sent. */
const noNetwork = async (input: string | URL): Promise<Response> => {
  throw new AppError(
    "USER.EGRESS.DENIED",
    `${new URL(input).host} was not asked: switchyard run --no-network sends no requests of operation states`,
  );
};

export const localOperations = (deps: {
  workspace: string;
  /** false under --no-network: http.request, webhooks and the GitHub API are refused. */
  network: boolean;
  env: NodeJS.ProcessEnv;
  scrubber: Scrubber;
  io: Io;
}): LocalOperations => {
  const { env, scrubber, io } = deps;
  const fetches: EgressFetch[] = [
    createEgressFetch(ANY_DESTINATION, EGRESS_PROFILES.operation),
    createEgressFetch(ANY_DESTINATION, EGRESS_PROFILES.notification),
  ];
  let token: Promise<string | undefined> | undefined;
  const port = createOperationPort({
    fetch: deps.network ? fetches[0]! : noNetwork,
    notifyFetch: deps.network ? fetches[1]! : noNetwork,
    githubApiUrl: env.SWITCHYARD_GITHUB_API_URL || GITHUB_API_URL,
    githubToken: () =>
      (token ??= (env.GITHUB_TOKEN ? Promise.resolve(env.GITHUB_TOKEN) : ghAuthToken(env)).then(
        (value) => {
          scrubber.add(value);
          return value;
        },
      )),
    gitRemote: () => workspaceGitRemote(deps.workspace),
    desktop: (request, n) => {
      io.err(
        scrubber.scrub(`🔔 [${request.stateName}] ${n.title} (${n.priority}): ${n.message}\n`),
      );
      return "printed on stderr";
    },
  });
  return { port, close: async () => void (await Promise.all(fetches.map((f) => f.close()))) };
};
