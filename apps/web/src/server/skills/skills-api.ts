/** What runs each skills-library operation (contract/skills.types.ts), on both surfaces. */
import { skillOperations } from "../contract/skills.types";
import { implement } from "../api/implement";
import { checkSkill, listTeamSkills, readSkill, removeSkill, saveSkill } from "./skill-operations";

export const skillsApi = implement(skillOperations, {
  list: ({ db, caller }) => listTeamSkills(db, caller),
  get: ({ db, caller }, input) => readSkill(db, caller, input.name, input.version),
  validate: (_ctx, input) => {
    const { errors, warnings } = checkSkill(input.name, input.content);
    return { ok: errors.length === 0, errors, warnings };
  },
  save: ({ db, caller }, input) => saveSkill(db, caller, input),
  delete: ({ db, caller }, input) => removeSkill(db, caller, input.name),
});
