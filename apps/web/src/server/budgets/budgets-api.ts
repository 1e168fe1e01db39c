/** What runs each budget operation (contract/budgets.types.ts), on both surfaces. */
import { budgetOperations } from "../contract/budgets.types";
import { implement } from "../api/implement";
import { listTeamBudgets, removeTeamBudget, setTeamBudget } from "./budget-operations";

export const budgetsApi = implement(budgetOperations, {
  list: ({ db, caller }) => listTeamBudgets(db, caller),
  set: ({ db, caller }, input) => setTeamBudget(db, caller, input),
  remove: ({ db, caller }, input) => removeTeamBudget(db, caller, input),
});
