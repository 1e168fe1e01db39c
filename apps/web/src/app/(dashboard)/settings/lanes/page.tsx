import { sessionMember } from "~/server/lanes/session-role";
import { LanesEditor } from "./lanes-editor";
import "../connectors/settings-pages.css";

export default async function LanesPage() {
  const { isAdmin } = await sessionMember();
  return (
    <>
      <h1>Lanes</h1>
      <p className="muted">
        Every workflow runs in one lane, and a lane says who may save workflows in it and who may
        start them, and which tool calls of its runs wait for a person&apos;s approval. Connectors
        and secrets list the lanes whose runs may use them. <code>default</code> and{" "}
        <code>operator</code> are built in; <code>operator</code> is for owners and admins only. A
        lane is removed only when no workflow, connector or secret names it.
        {isAdmin ? "" : " Only admins change lanes."}
      </p>
      <LanesEditor canAdmin={isAdmin} />
    </>
  );
}
