/**
 * AWF's `notify.send`. The `webhook` backend POSTs AWF's JSON payload (workflow, status,
 * duration, message, outputs, with title and priority) to the step's `webhook_url` over the caller's fetch, within
 * ten seconds. There is no desktop on a server: the `desktop` backend is handed to the
 * caller (the worker records it as a `notify.desktop` run event the run page shows;
 * `switchyard run` prints it on stderr).
 */
import type { FetchLike } from "../egress/egress-fetch";
import type { OperationResult } from "../workflow/model/engine-ports";
import { readCapped, requestFailure, shownUrl } from "./http-request";

const WEBHOOK_TIMEOUT_S = 10;
const DEFAULT_TITLE = "AWF Workflow";

export type DesktopNotification = { title: string; message: string; priority: string };

/** Shows a desktop notification; may answer where it went (the output `response`). */
export type ShowDesktop = (
  notification: DesktopNotification,
) => Promise<string | void> | string | void;

type NotifyDeps = { fetch: FetchLike; desktop: ShowDesktop };

type NotifyContext = {
  workflow: string;
  /** How long the run has been going, as `{{workflow.duration}}` shows it. */
  duration: string;
  /** Each finished state's Output so far. */
  outputs: Record<string, string>;
  /**
   * The run's status so far, in AWF's words for a finished workflow: `failure` once one of
   * its states failed (the step was reached through an `on_failure`, say), else `success`.
   * The run itself is still running while its step sends this, which says nothing.
   */
  status: "success" | "failure";
};

export const notifySend = async (
  deps: NotifyDeps,
  inputs: Record<string, unknown>,
  context: NotifyContext,
  signal: AbortSignal,
): Promise<OperationResult> => {
  const backend = String(inputs.backend);
  const message = String(inputs.message);
  const title = typeof inputs.title === "string" ? inputs.title : DEFAULT_TITLE;
  const priority = typeof inputs.priority === "string" ? inputs.priority : "default";
  switch (backend) {
    case "desktop": {
      const shown = await deps.desktop({ title, message, priority });
      return {
        outputs: { backend, status: "delivered", response: shown || "shown on the run page" },
        summary: `desktop notification "${title}" (${priority})`,
      };
    }
    case "webhook": {
      if (typeof inputs.webhook_url !== "string" || inputs.webhook_url === "")
        return {
          outputs: {},
          error: {
            code: "USER.INPUT.VALIDATION_FAILED",
            message: 'the webhook backend needs the input "webhook_url"',
          },
        };
      const url = inputs.webhook_url;
      const what = `POST ${shownUrl(url)}`;
      const timer = AbortSignal.timeout(WEBHOOK_TIMEOUT_S * 1000);
      try {
        const res = await deps.fetch(url, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({
            workflow: context.workflow,
            status: context.status,
            duration: context.duration,
            message,
            outputs: context.outputs,
            title,
            priority,
          }),
          signal: AbortSignal.any([signal, timer]),
        });
        const { text } = await readCapped(res, 64 * 1024);
        const outputs = { backend, status: String(res.status), response: text };
        const summary = `webhook ${what} → ${res.status}`;
        if (res.ok) return { outputs, summary };
        return {
          outputs,
          summary,
          error: { code: "EXECUTION.OPERATION_FAILED", message: `${what} answered ${res.status}` },
        };
      } catch (error) {
        return {
          outputs: {},
          summary: `webhook ${what} → no answer`,
          error: requestFailure(error, what, timer.aborted && !signal.aborted, WEBHOOK_TIMEOUT_S),
        };
      }
    }
    default:
      return {
        outputs: {},
        error: {
          code: "USER.INPUT.VALIDATION_FAILED",
          message: `"backend" must be desktop or webhook, got "${backend}"`,
        },
      };
  }
};
