/**
 * Where a session-tracked step's kept session is found again by a `continue_from` step of
 * the same run: the call_workflow states above the step, its workflow and its name (a
 * loop's newest run of it wins). The worker stores sessions under this key, the CLI holds
 * them in memory under it.
 */
import type { AgentRequest } from "../model/engine-ports";

export const conversationSessionKey = (request: Pick<AgentRequest, "path">, state: string) =>
  `conversation:${[...request.path.calls.map((c) => `${c.workflow}${c.key}`), request.path.workflow, state].join(" > ")}`;
