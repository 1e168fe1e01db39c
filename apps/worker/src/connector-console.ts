/**
 * The worker's end of the connector console: one tool call an admin makes by hand, through
 * the same path a step's call takes (lane rules, tool rules, the admin's or the team's
 * credential, the pool), its result scrubbed of every credential before it leaves. A form
 * the server sends during the call waits for the member who made it ("Waiting for you").
 */
import type { Keyring } from "@switchyard/core/crypto";
import type { ConnectorCallJob, ConnectorCallResult } from "@switchyard/core/runs";
import { Scrubber } from "@switchyard/core/secrets";
import type { Db } from "@switchyard/db";
import type { Logger } from "./logger";
import { openStepConnectors, type WorkerConnectors } from "./team-connectors";
import type { WaitWakers } from "./wait-wakers";

/** How long a console call's form waits for its answer: the whole call has a minute. */
const CONSOLE_FORM_MS = 40_000;

type ConsoleDeps = {
  db: Db;
  keyring: Keyring;
  log: Logger;
  connectors: WorkerConnectors;
  /** Wakes a call held on its form when the answer is announced. */
  waitWakers?: WaitWakers;
  /** How often a held form's wait is read when no answer is announced. */
  waitPollMs?: number;
};

export const callConnectorByHand = async (
  deps: ConsoleDeps,
  job: ConnectorCallJob,
): Promise<ConnectorCallResult> => {
  const scrubber = new Scrubber();
  const started = performance.now();
  const step = await openStepConnectors({
    ...deps,
    scrubber,
    teamId: job.teamId,
    runId: null,
    lane: job.lane,
    starterId: job.userId,
    slugs: [job.connector],
    stateName: "console",
    // A server's form is asked of the member who made the call, within the console's minute.
    elicitation: {
      waitMs: CONSOLE_FORM_MS,
      askedById: job.userId,
      ...(deps.waitWakers ? { waitWakers: deps.waitWakers } : {}),
      ...(deps.waitPollMs ? { pollMs: deps.waitPollMs } : {}),
    },
  });
  try {
    const result = await step!.host.callTool(
      job.connector,
      job.tool,
      job.arguments,
      AbortSignal.timeout(55_000),
    );
    return scrubber.scrubValue({
      isError: result.isError === true,
      content: result.content,
      structuredContent: result.structuredContent ?? null,
      durationMs: Math.round(performance.now() - started),
    });
  } catch (error) {
    throw scrubber.scrubError(error);
  } finally {
    await step?.host.close();
  }
};
