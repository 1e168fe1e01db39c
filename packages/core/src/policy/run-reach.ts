/**
 * What a run reaches: its workflow and every workflow it calls, transitively, each with its
 * lane. Save, start and the worker collect it (from the team's current versions, or from
 * the versions a run pinned) and check it with the one lane policy: every call may be made,
 * the starter may start every lane reached, and every secret and connector named anywhere is
 * open to the run's lane (a called workflow runs in its caller's lane).
 */
import { AppError, type ErrorLocation } from "../errors/app-error";
import { envNamesOf } from "../workflow/parse/env-names";
import type { Workflow } from "../workflow/model/workflow-types";
import { calleeNames, resolveCalleeName } from "./callee-names";
import {
  mayCall,
  mayReachConnector,
  mayStart,
  mayUseSecret,
  type ConnectorRule,
  type LaneTable,
  type Role,
  type SecretRule,
} from "./lane-policy";

/** A workflow with its lane and the pack it comes from (none for the team's own). */
export type ReachedWorkflow = { workflow: Workflow; lane: string; pack?: string | null };
/** The callees by team name: a call's name is looked up as calleeNames says. */
type RunReach = { root: ReachedWorkflow; callees: ReadonlyMap<string, ReachedWorkflow> };
/** A callee by its team name, with its lane; undefined when the team has none by that name. */
export type CalleeSource = (name: string) => Promise<ReachedWorkflow | undefined>;

export const collectRunReach = async (
  root: ReachedWorkflow,
  load: CalleeSource,
): Promise<RunReach> => {
  const callees = new Map<string, ReachedWorkflow>();
  const pending = [root];
  for (let next = pending.pop(); next; next = pending.pop()) {
    for (const state of next.workflow.states.values()) {
      if (state.kind !== "call_workflow") continue;
      const found = new Map<string, ReachedWorkflow | undefined>();
      const name = await resolveCalleeName(next.pack, state.workflow, async (n) => {
        // The run's own workflow is at hand: a call back to it loads nothing.
        if (n === root.workflow.name) return true;
        if (!callees.has(n) && !found.has(n)) found.set(n, await load(n));
        return callees.has(n) || found.get(n) !== undefined;
      });
      // validation and the engine report a missing sub-workflow
      if (name === undefined || name === root.workflow.name || callees.has(name)) continue;
      const callee = found.get(name)!;
      callees.set(name, callee);
      pending.push(callee);
    }
  }
  return { root, callees };
};

type ReachCheck = {
  lanes: LaneTable;
  reach: RunReach;
  /**
   * Who saves or starts: they must be allowed to start every callee's lane other than the
   * run's own (that one is checked by mayStart or maySave). Undefined for a run without a
   * starter, where only the calls themselves are checked.
   */
  role: Role | undefined;
  /** The team's secret variables by name; plain variables are not in it. */
  secrets: ReadonlyMap<string, SecretRule>;
  /** The team's connectors by id; every connector an agent step names must be reachable from the run's lane. */
  connectors: ReadonlyMap<string, ConnectorRule>;
};

const at = (error: AppError, location: ErrorLocation) =>
  new AppError(error.code, error.message, { location });

/** The first refusal among the run's calls and secrets, located where it is written. */
export const checkRunReach = ({
  lanes,
  reach,
  role,
  secrets,
  connectors,
}: ReachCheck): AppError | undefined => {
  const runLane = reach.root.lane;
  for (const { workflow, lane, pack } of [reach.root, ...reach.callees.values()]) {
    for (const name of envNamesOf(workflow)) {
      const secret = secrets.get(name);
      const denied = secret && mayUseSecret(secret, runLane);
      if (denied) return at(denied, { file: workflow.file, path: "env" });
    }
    for (const state of workflow.states.values()) {
      if (state.kind === "agent") {
        for (const id of state.mcpProxy?.connectors ?? []) {
          const denied = mayReachConnector(connectors.get(id), id, runLane);
          const where = {
            file: workflow.file,
            line: state.source.line,
            column: state.source.column,
            path: `${state.source.path}.mcp_proxy.connectors`,
          };
          if (denied) return at(denied, where);
        }
      }
      if (state.kind !== "call_workflow") continue;
      const called = calleeNames(pack, state.workflow).find((n) => reach.callees.has(n));
      const callee = called === undefined ? undefined : reach.callees.get(called);
      if (!callee) continue;
      const where = {
        file: workflow.file,
        line: state.source.line,
        column: state.source.column,
        path: `${state.source.path}.workflow`,
      };
      const call = mayCall(lanes, lane, callee.lane);
      if (call) return at(call, where);
      const start =
        role !== undefined && callee.lane !== runLane
          ? mayStart(lanes, role, callee.lane)
          : undefined;
      if (start) {
        return new AppError(
          "USER.LANE.CALL_DENIED",
          `"${workflow.name}" calls "${state.workflow}" in lane "${callee.lane}", where your role (${role}) may not start runs`,
          { location: where },
        );
      }
    }
  }
  return undefined;
};
