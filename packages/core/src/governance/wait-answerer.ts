/**
 * Who may answer a wait, as a pure rule of the team's lanes and the caller: at least the
 * wait's minimum role, allowed to start runs in the wait's lane (as a run start asks the lane
 * policy), not the run's starter when the wait says so (four eyes), and only the starter when
 * the wait says that (a conversation's next message: the chat is the starter's). A run with
 * no starter left (its account deleted) leaves the rest of the rule to decide; a schedule's or
 * webhook's run is started as the member its trigger runs as, who is its starter here. An `input`
 * wait gives the inputs a run starts with as the member it runs as, so that member may answer
 * it whatever its minimum role (admin: those who may change someone else's trigger), as only
 * they or an admin may change the trigger that started it. The refusal names the rule that
 * failed; the description says who may, for the person who may not.
 */
import { AppError } from "../errors/app-error";
import { mayStart, type LaneTable, type Role } from "../policy/lane-policy";
import { roleAtLeast } from "../policy/roles";

/** What of a wait decides who may answer it. */
type WaitAnswerRule = {
  minRole: Role;
  lane: string;
  notStarter: boolean;
  starterOnly: boolean;
  /** the run's starter (null: a trigger or a deleted user) */
  startedById: string | null;
  /** `input`: the run's starter may answer too, whatever the minimum role */
  kind?: string;
};

/** An `input` wait answered by the member its run runs as. */
const theRunsMember = (caller: WaitAnswerer, wait: WaitAnswerRule) =>
  wait.kind === "input" && wait.startedById !== null && wait.startedById === caller.userId;

type WaitAnswerer = { userId: string; role: Role };

/** The refusal (USER.WAIT.NOT_ALLOWED) of this caller, or undefined when it may answer. */
export const waitAnswerRefusal = (
  lanes: LaneTable,
  caller: WaitAnswerer,
  wait: WaitAnswerRule,
): AppError | undefined => {
  if (!roleAtLeast(caller.role, wait.minRole) && !theRunsMember(caller, wait))
    return new AppError(
      "USER.WAIT.NOT_ALLOWED",
      wait.kind === "input"
        ? `the inputs of this run are given by the member this run runs as, or the role ${wait.minRole} or above; yours is ${caller.role}`
        : `this wait needs the role ${wait.minRole} or above; yours is ${caller.role}`,
    );
  const lane = mayStart(lanes, caller.role, wait.lane);
  if (lane)
    return new AppError(
      "USER.WAIT.NOT_ALLOWED",
      `only those who may start runs in lane "${wait.lane}" may answer: ${lane.message}`,
    );
  if (wait.notStarter && wait.startedById === caller.userId)
    return new AppError(
      "USER.WAIT.NOT_ALLOWED",
      "this wait must be answered by someone other than the person who started the run",
    );
  if (wait.starterOnly && wait.startedById !== null && wait.startedById !== caller.userId)
    return new AppError(
      "USER.WAIT.NOT_ALLOWED",
      "only the person who started the run may answer this wait (a conversation is theirs)",
    );
  return undefined;
};

/** Who may answer, in words: "admin or above who may start runs in lane "deploy", not the run's starter". */
export const describeAnswerers = (wait: Omit<WaitAnswerRule, "startedById">): string => {
  const role = `${wait.minRole === "owner" ? "an owner" : `${wait.minRole === "admin" ? "an" : "a"} ${wait.minRole} or above`}`;
  const rule = `${wait.kind === "input" ? `the member the run runs as, or ${role},` : role} who may start runs in lane "${wait.lane}"${wait.notStarter ? ", not the run's starter" : ""}`;
  return wait.starterOnly ? `the run's starter (once their account is gone: ${rule})` : rule;
};
