import { TokensEditor } from "./tokens-editor";

export default function TokensPage() {
  return (
    <>
      <h1>API tokens</h1>
      <p className="muted">
        A token acts as you, in this team, with the role you give it (at most yours, and never more
        than your role at the time of each call), on the REST API at <code>/api/v1</code> (described
        at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>). Send it as{" "}
        <code>Authorization: Bearer …</code>. You see and revoke the tokens you made; admins see
        every member&apos;s, with who made it, and may revoke any of them. A token works only while
        its maker stays in the team (removing a member revokes their tokens, and inviting them back
        brings none back); a token made with a token never outlives it and is revoked with it.
        Revoked tokens stay listed for 30 days, with when and why.
      </p>
      <TokensEditor />
    </>
  );
}
