/**
 * Request and response shapes of the team's lanes (Settings → Lanes), shared by the tRPC
 * procedures, the REST routes and the generated OpenAPI document. A lane names who may
 * save and who may start workflows in it, and which tool calls of its runs wait for a
 * person's approval; every member lists them, with what names each.
 */
import { z } from "zod";
import { approvalRuleSchema } from "@switchyard/core/governance";
import { operation } from "./operation";
import { timestamp } from "./timestamp";

const role = z.enum(["owner", "admin", "member", "viewer"]);
const roles = z.array(role).max(8);
/** A lane as a workflow's `lane:`, a connector's and a secret's lanes name it. */
const newLaneName = z
  .string()
  .regex(
    /^[a-z][a-z0-9_-]{0,31}$/,
    "a lane name is 1 to 32 lower-case letters, digits, _ or -, starting with a letter",
  )
  .describe("the lane's name, e.g. review");
const laneName = z.string().min(1).max(64).describe("the lane's name");

const approvalRule = approvalRuleSchema.describe(
  "a tool call that waits for approval: tool (a name pattern, * any run of characters), command (Bash only: a regular expression the command matches), outside (Write and Edit only: a write outside this workspace path prefix), min_role (who may approve: member, admin or owner; member unless set), not_starter (the run's starter may not approve)",
);
const approvalRules = z
  .array(approvalRule)
  .describe("tool calls of the lane's runs that wait for a person's approval (docs/governance.md)");

/**
 * A rule as a body carries it: the operation checks each one, so a bad rule is
 * USER.APPROVAL.RULE_INVALID naming its index and field; the document shows the rule's shape.
 */
const { $schema: _, ...ruleJson } = z.toJSONSchema(approvalRule, { io: "input" });
const ruleInBody = z.unknown().meta(ruleJson);

export const laneListing = z.object({
  name: z.string(),
  description: z.string(),
  saveRoles: z.array(role).describe("roles that may save workflows in the lane"),
  startRoles: z.array(role).describe("roles that may start (and cancel) runs in the lane"),
  builtIn: z
    .boolean()
    .describe("default and operator: never removed; operator's roles stay owner and admin"),
  approvalRules,
  usedBy: z
    .object({
      workflows: z.array(z.string()),
      connectors: z.array(z.string()),
      secrets: z.array(z.string()),
    })
    .describe("what names the lane: a lane is removed only when nothing does"),
  createdAt: timestamp,
});
export const laneList = z.array(laneListing);
export const listLanesResponse = z.object({ lanes: laneList });

const laneFields = {
  description: z.string().max(500).default(""),
  saveRoles: roles.describe("roles that may save workflows in the lane"),
  startRoles: roles.describe("roles that may start (and cancel) runs in the lane"),
};
export const createLaneBody = z.object({ name: newLaneName, ...laneFields });
export const updateLaneBody = z.object(laneFields);
export const updateLaneInput = updateLaneBody.extend({ name: laneName });
export const laneNameInput = z.object({ name: laneName });
export const removeLaneResponse = z.object({ name: z.string() });
export const setApprovalRulesBody = z.object({
  rules: z
    .array(ruleInBody)
    .max(100)
    .describe("the lane's rules, all of them: what is left out is removed"),
});
export const setApprovalRulesInput = setApprovalRulesBody.extend({ name: laneName });
export const approvalRulesResponse = z.object({ lane: z.string(), rules: approvalRules });

export const laneOperations = {
  list: operation({
    kind: "query",
    access: "team",
    output: laneList,
    rest: {
      method: "GET",
      path: "/lanes",
      summary: "The team's lanes: who may save and start workflows in each, and what names each",
      status: 200,
      description: "Lanes",
      wrap: "lanes",
      response: listLanesResponse,
    },
  }),
  create: operation({
    kind: "mutation",
    access: "team",
    role: "admin",
    input: createLaneBody,
    output: laneListing,
    rest: {
      method: "POST",
      path: "/lanes",
      summary: "Admins: add a lane; operator's roles stay owner and admin",
      body: createLaneBody,
      status: 201,
      description: "The lane as stored",
    },
  }),
  update: operation({
    kind: "mutation",
    access: "team",
    role: "admin",
    input: updateLaneInput,
    output: laneListing,
    rest: {
      method: "PUT",
      path: "/lanes/{name}",
      summary:
        "Admins: change a lane's description and who may save and start in it (its name stays)",
      body: updateLaneBody,
      status: 200,
      description: "The lane as stored",
    },
  }),
  approvalRules: operation({
    kind: "query",
    access: "team",
    input: laneNameInput,
    output: approvalRulesResponse,
    rest: {
      method: "GET",
      path: "/lanes/{name}/approval-rules",
      summary: "Which tool calls of the lane's runs wait for a person's approval",
      status: 200,
      description: "The lane's approval rules",
    },
  }),
  setApprovalRules: operation({
    kind: "mutation",
    access: "team",
    role: "admin",
    input: setApprovalRulesInput,
    output: approvalRulesResponse,
    rest: {
      method: "PUT",
      path: "/lanes/{name}/approval-rules",
      summary:
        "Admins: replace the lane's approval rules (connector tools by pattern; Bash by command; Write and Edit outside a path)",
      body: setApprovalRulesBody,
      status: 200,
      description: "The lane's rules as stored",
      errors: { 400: "A rule is not valid: USER.APPROVAL.RULE_INVALID names its index and field" },
    },
  }),
  remove: operation({
    kind: "mutation",
    access: "team",
    role: "admin",
    input: laneNameInput,
    output: removeLaneResponse,
    rest: {
      method: "DELETE",
      path: "/lanes/{name}",
      summary: "Admins: remove a lane nothing names (never default or operator)",
      status: 200,
      description: "Removed",
      errors: { 409: "Built in, or still named by a workflow, a connector or a secret" },
    },
  }),
};
