/**
 * Response shapes of the team-variable operations, shared by the tRPC procedures, the REST
 * routes and the generated OpenAPI document; the request shapes are variable-operations' inputs.
 */
import { z } from "zod";
import { timestamp } from "./timestamp";

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
export const setVariableResponse = z.looseObject({ name: z.string(), secret: z.boolean(), lanes: z.array(z.string()) });
export const secretLanesResponse = z.looseObject({ name: z.string(), lanes: z.array(z.string()) });
export const deleteVariableResponse = z.object({ name: z.string() });
