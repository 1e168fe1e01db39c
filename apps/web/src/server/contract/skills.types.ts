/**
 * The skills-library operations (agentskills.io skills a team keeps for `skills:` names its
 * workflows' bundles do not hold): their request and response shapes, from which the tRPC
 * procedures, the REST routes and the OpenAPI document are derived. Every member reads them;
 * members save and delete them.
 */
import { z } from "zod";
import { operation } from "./operation";
import { timestamp } from "./timestamp";
import { diagnostic } from "./workflows.types";

const skillName = z
  .string()
  .min(1)
  .max(64)
  .regex(
    /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
    "lowercase letters, digits and single hyphens, not starting or ending with one",
  );
export const skillNameInput = z.object({ name: skillName });
export const skillBody = z.object({
  content: z
    .string()
    .max(768 * 1024)
    .describe("the SKILL.md: agentskills.io front matter (name, description, ...) then Markdown"),
});
export const saveSkillInput = skillBody.extend({ name: skillName });
const versionQuery = z.object({
  version: z.coerce
    .number()
    .int()
    .min(1)
    .optional()
    .describe("a version's number; the current version when absent"),
});
export const getSkillInput = skillNameInput.extend(versionQuery.shape);

export const skillSummary = z.object({
  name: z.string(),
  description: z.string().describe("the front matter's description"),
  version: z.number().int().nullable(),
  updatedAt: timestamp,
});
export const skillList = z.array(skillSummary);
export const skillDetail = skillSummary.extend({
  content: z.string().describe("the SKILL.md of the version asked for"),
  shownVersion: z.number().int().describe("the version whose content this is"),
  versions: z.array(z.object({ number: z.number().int(), createdAt: timestamp })),
});
export const saveSkillResponse = z.object({
  name: z.string(),
  version: z.number().int(),
  created: z.boolean().describe("false when the text was unchanged and no version was made"),
  warnings: z.array(diagnostic),
});
export const validateSkillResponse = z.object({
  ok: z.boolean(),
  errors: z.array(diagnostic),
  warnings: z.array(diagnostic),
});

export const skillOperations = {
  list: operation({
    kind: "query",
    access: "team",
    output: skillList,
    rest: {
      method: "GET",
      path: "/skills",
      summary: "The team's library skills with their current versions",
      status: 200,
      description: "Skills",
      wrap: "skills",
      response: z.object({ skills: skillList }),
    },
  }),
  get: operation({
    kind: "query",
    access: "team",
    input: getSkillInput,
    output: skillDetail,
    rest: {
      method: "GET",
      path: "/skills/{name}",
      pathSchema: skillNameInput,
      summary: "A library skill's SKILL.md (current, or ?version=N) and its versions",
      query: versionQuery,
      status: 200,
      description: "The skill",
    },
  }),
  validate: operation({
    kind: "mutation",
    access: "team",
    input: saveSkillInput,
    output: validateSkillResponse,
    rest: {
      method: "POST",
      path: "/skills/{name}/validate",
      pathSchema: skillNameInput,
      summary: "Check a SKILL.md against the agentskills.io format without saving it",
      body: skillBody,
      status: 200,
      description: "Diagnostics",
    },
  }),
  save: operation({
    kind: "mutation",
    access: "team",
    role: "member",
    input: saveSkillInput,
    output: saveSkillResponse,
    rest: {
      method: "PUT",
      path: "/skills/{name}",
      pathSchema: skillNameInput,
      summary:
        "Members: save a library skill as a new version (workflows pin it when they are saved again)",
      body: skillBody,
      status: 200,
      description: "Saved",
    },
  }),
  delete: operation({
    kind: "mutation",
    access: "team",
    role: "member",
    input: skillNameInput,
    output: z.object({ name: z.string() }),
    rest: {
      method: "DELETE",
      path: "/skills/{name}",
      pathSchema: skillNameInput,
      summary: "Members: delete a library skill (saved workflow versions keep their pinned copy)",
      status: 200,
      description: "Deleted",
    },
  }),
};
