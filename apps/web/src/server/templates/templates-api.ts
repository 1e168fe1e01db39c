/** What runs each step-template operation (contract/templates.types.ts), on both surfaces. */
import { templateOperations } from "../contract/templates.types";
import { implement } from "../api/implement";
import {
  checkTemplate,
  listTemplates,
  readTemplate,
  removeTemplate,
  saveTemplate,
} from "./template-operations";

export const templatesApi = implement(templateOperations, {
  list: ({ db, caller }) => listTemplates(db, caller),
  get: ({ db, caller }, input) => readTemplate(db, caller, input.name),
  validate: (_ctx, input) => {
    const errors = checkTemplate(input.name, input.content);
    return { ok: errors.length === 0, errors };
  },
  save: ({ db, caller }, input) => saveTemplate(db, caller, input),
  delete: ({ db, caller }, input) => removeTemplate(db, caller, input.name),
});
