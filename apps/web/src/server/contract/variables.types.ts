/**
 * The team-variable operations: their request and response shapes and how each is served,
 * from which the tRPC procedures, the REST routes and the OpenAPI document are derived.
 * Every member lists them (a secret shows its lanes, never its value); admins write them.
 */
import { z } from "zod";
import { operation } from "./operation";
import { timestamp } from "./timestamp";

const lanes = z.array(z.string().min(1).max(64)).max(32);
export const variableValueInput = z.object({
  value: z.string().max(65536),
  secret: z.boolean(),
  /** a secret's lanes; a new secret is open to operator only */
  lanes: lanes.optional(),
});
export const setVariableInput = variableValueInput.extend({ name: z.string().min(1).max(128) });
export const secretLanesInput = z.object({ lanes });
export const variableNameInput = z.object({ name: z.string().min(1).max(128) });

export const teamVariable = z.object({
  name: z.string(),
  secret: z.boolean(),
  value: z.string().nullable().describe("null for a secret: its value is never returned"),
  lanes: z.array(z.string()).describe("lanes whose runs may open the secret"),
  updatedAt: timestamp,
});
export const variableList = z.array(teamVariable);
export const listVariablesResponse = z.object({ variables: variableList });
/** The team's lane names, the choices for a secret's lanes. */
export const laneNames = z.array(z.string());
export const setVariableResponse = z.looseObject({
  name: z.string(),
  secret: z.boolean(),
  lanes: z.array(z.string()),
});
export const secretLanesResponse = z.looseObject({ name: z.string(), lanes: z.array(z.string()) });
export const deleteVariableResponse = z.object({ name: z.string() });

export const variableOperations = {
  list: operation({
    kind: "query",
    access: "team",
    output: variableList,
    rest: {
      method: "GET",
      path: "/variables",
      summary:
        "The team's variables: plain values, and each secret's lanes (a secret's value is never returned)",
      status: 200,
      description: "Variables",
      wrap: "variables",
      response: listVariablesResponse,
    },
  }),
  lanes: operation({
    kind: "query",
    access: "team",
    output: laneNames,
    rest: {
      only: "the dashboard's choices for a secret's lanes; over REST, GET /lanes lists them with more",
    },
  }),
  set: operation({
    kind: "mutation",
    access: "team",
    role: "admin",
    input: setVariableInput,
    output: setVariableResponse,
    rest: {
      method: "PUT",
      path: "/variables/{name}",
      summary:
        "Admins: set a variable; a new secret is open to the operator lane only unless lanes are given",
      body: variableValueInput,
      status: 200,
      description: "Set",
    },
  }),
  setLanes: operation({
    kind: "mutation",
    access: "team",
    role: "admin",
    input: variableNameInput.extend(secretLanesInput.shape),
    output: secretLanesResponse,
    rest: {
      method: "PUT",
      path: "/variables/{name}/lanes",
      summary: "Admins: the lanes whose runs may open a secret",
      body: secretLanesInput,
      status: 200,
      description: "The secret's lanes",
    },
  }),
  delete: operation({
    kind: "mutation",
    access: "team",
    role: "admin",
    input: variableNameInput,
    output: deleteVariableResponse,
    rest: {
      method: "DELETE",
      path: "/variables/{name}",
      summary: "Admins: delete a variable",
      status: 200,
      description: "Deleted",
    },
  }),
};
