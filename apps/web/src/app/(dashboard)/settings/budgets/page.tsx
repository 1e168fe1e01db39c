import { BudgetsEditor } from "./budgets-editor";

export default function BudgetsPage() {
  return (
    <>
      <h1>Budgets</h1>
      <p className="muted">
        Spend limits on the whole team, a lane or a workflow, per UTC day or month: model cost in
        USD, model tokens, and calls per tool pattern (<code>*</code> matches any run of
        characters). A step stops with <code>USER.BUDGET.EXCEEDED</code> once the tightest limit
        that applies to it is reached, and a run does not start once its team&apos;s or lane&apos;s
        monthly limit is. A step may set its own limit in its workflow (<code>budget:</code>). Every
        member sees this page; only admins change it.
      </p>
      <BudgetsEditor />
    </>
  );
}
