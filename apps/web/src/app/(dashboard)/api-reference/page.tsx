/**
 * The REST API's reference, read from the same OpenAPI document GET /api/v1/openapi.json
 * serves (imported here, not fetched), so every route anyone adds shows up on its own.
 */
import Link from "next/link";
import { headers } from "next/headers";
import { openApiDocument } from "~/server/rest/rest-api";
import { readOperations, type OpenApiDocument, type Operation } from "./operations";
import { SchemaTree } from "./schema-tree";

export const metadata = { title: "API reference · Switchyard" };

const originOf = async () => {
  const h = await headers();
  const host = h.get("x-forwarded-host") ?? h.get("host") ?? "localhost:3000";
  const proto =
    h.get("x-forwarded-proto") ??
    (host.startsWith("localhost") || host.startsWith("127.") ? "http" : "https");
  return `${proto}://${host}`;
};

export default async function ApiReferencePage() {
  const groups = readOperations(openApiDocument as unknown as OpenApiDocument);
  const origin = await originOf();
  const count = groups.reduce((n, g) => n + g.operations.length, 0);
  return (
    <div className="api-ref">
      <h1>API reference</h1>
      <p>
        {count} operations under <code>/api/v1</code>, from the document served at{" "}
        <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>. Every request needs an API token of
        a team member (<Link href="/settings/tokens">Settings → API tokens</Link>); it acts with
        that member&apos;s role. Errors answer{" "}
        <code>{"{ error: { code, message, location?, details? } }"}</code>. The guide with a
        walk-through is <code>docs/api.md</code>.
      </p>
      <pre className="output code-block" tabIndex={0} aria-label="Setting up the examples">
        {`export SWITCHYARD_URL=${origin}\nexport SWITCHYARD_TOKEN=sy_...   # made in Settings → API tokens`}
      </pre>
      <nav aria-label="Operations" className="card api-toc">
        <ul>
          {groups.map((g) => (
            <li key={g.name}>
              <a href={`#group-${g.name}`}>{g.name}</a>{" "}
              <span className="muted small">({g.operations.length})</span>
            </li>
          ))}
        </ul>
      </nav>
      {groups.map((g) => (
        <section key={g.name} id={`group-${g.name}`} aria-labelledby={`group-${g.name}-h`}>
          <h2 id={`group-${g.name}-h`}>{g.name}</h2>
          {g.operations.map((op) => (
            <OperationCard key={op.id} op={op} />
          ))}
        </section>
      ))}
    </div>
  );
}

function OperationCard({ op }: { op: Operation }) {
  return (
    <article id={op.id} className="card api-op" aria-labelledby={`${op.id}-h`}>
      <h3 id={`${op.id}-h`} className="api-op-head">
        <span className={`method method-${op.method.toLowerCase()}`}>{op.method}</span>{" "}
        <code className="api-path">{op.path}</code>
      </h3>
      <p>{op.summary}</p>
      {op.parameters.length > 0 ? (
        <>
          <h4>Parameters</h4>
          <div className="table-scroll">
            <table className="table api-params">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">In</th>
                  <th scope="col">Schema</th>
                </tr>
              </thead>
              <tbody>
                {op.parameters.map((p) => (
                  <tr key={`${p.in}-${p.name}`}>
                    <td>
                      <code>{p.name}</code>
                      {p.required ? <span className="schema-required"> required</span> : null}
                    </td>
                    <td>{p.in}</td>
                    <td>
                      <SchemaTree schema={p.schema} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
      {op.body ? (
        <>
          <h4>
            Request body{" "}
            <span className="muted small">
              {op.body.contentType}
              {op.body.required ? ", required" : ", optional"}
            </span>
          </h4>
          <SchemaTree schema={op.body.schema} />
        </>
      ) : null}
      {op.success.map((r) => (
        <div key={r.status}>
          <h4>
            Response {r.status}{" "}
            <span className="muted small">
              {r.description}
              {r.contentType ? ` · ${r.contentType}` : ""}
            </span>
          </h4>
          {r.schema ? <SchemaTree schema={r.schema} /> : null}
        </div>
      ))}
      <h4>Errors</h4>
      <ul className="api-errors small">
        {op.errors.map((e) => (
          <li key={e.status}>
            <code>{e.status}</code> {e.description}
          </li>
        ))}
      </ul>
      <h4>Example</h4>
      <pre
        className="output code-block"
        tabIndex={0}
        aria-label={`curl example for ${op.method} ${op.path}`}
      >
        {op.curl}
      </pre>
    </article>
  );
}
