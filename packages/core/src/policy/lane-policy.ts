/**
 * The one lane policy: who may save, start and cancel workflows in a lane, which lane's
 * workflow may call which, and which lanes may use a secret. Pure functions of the team's
 * lane table and the caller's role; each returns the refusal to throw, or undefined. A lane
 * the table does not hold denies everything.
 */
import { AppError } from "../errors/app-error";

export type Role = "owner" | "admin" | "member" | "viewer";
type LaneRule = { name: string; saveRoles: readonly Role[]; startRoles: readonly Role[] };
export type LaneTable = ReadonlyMap<string, LaneRule>;
/** A secret variable and the lanes whose runs may open it. */
export type SecretRule = { name: string; lanes: readonly string[] };
/** A team connector, whether it is on, and the lanes whose runs may reach it (`*`: every lane). */
export type ConnectorRule = { slug: string; lanes: readonly string[]; enabled: boolean };
/** In a connector's lanes: open to every lane of the team. */
export const ALL_LANES = "*";

/** The lane table of these rules, by lane name. */
export const laneTable = (rules: Iterable<LaneRule>): LaneTable =>
  new Map([...rules].map((r) => [r.name, r]));

const missing = (lane: string) =>
  new AppError("FORBIDDEN", `lane "${lane}" does not exist in this team`);

const byRoles =
  (roles: (rule: LaneRule) => readonly Role[], what: string) =>
  (lanes: LaneTable, role: Role, lane: string): AppError | undefined => {
    const rule = lanes.get(lane);
    if (!rule) return missing(lane);
    return roles(rule).includes(role)
      ? undefined
      : new AppError("FORBIDDEN", `your role (${role}) may not ${what} in lane "${lane}"`);
  };

/** Saving a workflow needs one of the lane's save roles. */
export const maySave = byRoles((r) => r.saveRoles, "save workflows");
/** Starting a run needs one of the lane's start roles. */
export const mayStart = byRoles((r) => r.startRoles, "start runs");
/** Cancelling a run needs the right to start runs in its lane. */
export const mayCancel = byRoles((r) => r.startRoles, "cancel runs");

/**
 * A workflow in `caller` may call one in `callee` only if everyone who may edit the callee
 * may also edit the caller: code never runs code that someone outside its own save roles
 * can change (an operator workflow never calls a member-editable one).
 */
export const mayCall = (lanes: LaneTable, caller: string, callee: string) => {
  const from = lanes.get(caller);
  const to = lanes.get(callee);
  if (!from || !to)
    return new AppError(
      "USER.LANE.CALL_DENIED",
      `lane "${from ? callee : caller}" does not exist in this team`,
    );
  const outsiders = to.saveRoles.filter((r) => !from.saveRoles.includes(r));
  if (outsiders.length > 0) {
    return new AppError(
      "USER.LANE.CALL_DENIED",
      `a workflow in lane "${caller}" may not call one in lane "${callee}": ${outsiders.join(", ")} may edit it there but not in "${caller}"`,
    );
  }
  return undefined;
};

/** A secret opens only for runs in one of its lanes. */
export const mayUseSecret = (secret: SecretRule, runLane: string) =>
  secret.lanes.includes(runLane)
    ? undefined
    : new AppError(
        "USER.LANE.SECRET_DENIED",
        `secret "${secret.name}" is not open to lane "${runLane}" (it is open to ${secret.lanes.length > 0 ? secret.lanes.map((l) => `"${l}"`).join(", ") : "no lane"})`,
      );

/**
 * A run's agent steps reach a connector only when the team has it, it is enabled, and the
 * run's lane is one of its lanes. Asked at save, at start, when a step's catalog is built
 * and again at every call.
 */
export const mayReachConnector = (
  connector: ConnectorRule | undefined,
  id: string,
  runLane: string,
) => {
  if (!connector)
    return new AppError(
      "USER.MCP_PROXY.UNKNOWN_CONNECTOR",
      `connector "${id}" does not exist in this team`,
    );
  if (!connector.enabled)
    return new AppError("USER.MCP_PROXY.UNKNOWN_CONNECTOR", `connector "${id}" is disabled`);
  if (connector.lanes.includes(ALL_LANES) || connector.lanes.includes(runLane)) return undefined;
  return new AppError(
    "USER.MCP_PROXY.LANE_DENIED",
    `connector "${id}" is not open to lane "${runLane}" (it is open to ${connector.lanes.length > 0 ? connector.lanes.map((l) => `"${l}"`).join(", ") : "no lane"})`,
  );
};
