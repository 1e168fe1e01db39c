/**
 * Operation states as AWF writes them (`type: operation`, or `type: step` with
 * `operation:`): AWF's examples read as they are, and each problem with an operation or its
 * inputs is reported at its line and field.
 */
import { describe, expect, it } from "vitest";
import { parseWorkflow } from "./parse-workflow";

const wrap = (state: string) => `name: ops
states:
  initial: op
  op:
${state}
    on_success: done
    on_failure: error
  done:
    type: terminal
  error:
    type: terminal
    status: failure
`;

const problems = (source: string) =>
  parseWorkflow(source, "w.yaml").errors.map((e) => ({
    code: e.code,
    line: e.location?.line,
    path: e.location?.path,
    message: e.message,
  }));

describe("operation states", () => {
  it("reads AWF's documented examples unchanged", () => {
    const examples = [
      `    type: operation
    operation: github.get_issue
    inputs:
      number: 42`,
      `    type: operation
    operation: github.create_pr
    inputs:
      title: "feat: add login page"
      head: feature/login
      base: main
      body: "Implements the login UI"
      draft: true`,
      `    type: operation
    operation: github.add_labels
    inputs:
      number: "{{.inputs.issue_number}}"
      labels: ["bug", "priority-high"]`,
      `    type: operation
    operation: github.batch
    inputs:
      strategy: best_effort
      concurrency: 3
      operations:
        - name: github.add_labels
          number: 1
          labels: ["reviewed"]
        - name: github.add_labels
          number: 2
          labels: ["reviewed"]`,
      `    type: operation
    operation: notify.send
    inputs:
      backend: desktop
      title: "Build Complete"
      message: "{{workflow.name}} finished in {{workflow.duration}}"`,
      `    type: step
    operation: notify.send
    inputs:
      backend: webhook
      webhook_url: "https://example.com/hooks/deployments"
      message: "Deploy completed"`,
      `    type: operation
    operation: http.request
    inputs:
      method: POST
      url: "https://api.example.com/resources"
      headers:
        Content-Type: "application/json"
        Authorization: "Bearer {{.inputs.api_token}}"
      body: '{"name": "{{.inputs.resource_name}}"}'
      timeout: 15
      retryable_status_codes: [429, 502, 503]
    retry:
      max_attempts: 3
      backoff: exponential
      initial_delay: 2s`,
    ];
    const inputs = `inputs:
  - name: issue_number
    type: integer
  - name: api_token
    type: string
  - name: resource_name
    type: string
`;
    for (const example of examples) {
      const source = wrap(example).replace("states:", `${inputs}states:`);
      expect(problems(source), example).toEqual([]);
    }
    const { workflow } = parseWorkflow(wrap(examples[5]!), "w.yaml");
    expect(workflow!.states.get("op")).toMatchObject({
      kind: "operation",
      operation: "notify.send",
      inputs: { backend: "webhook", message: "Deploy completed" },
    });
  });

  it("names an unknown operation with the closest one, at its line", () => {
    expect(
      problems(
        wrap(`    type: operation
    operation: github.get_isue
    inputs:
      number: 1`),
      ),
    ).toEqual([
      expect.objectContaining({
        code: "WORKFLOW.VALIDATION.INVALID_VALUE",
        line: 6,
        path: "states.op.operation",
        message: expect.stringContaining('(did you mean "github.get_issue"?)') as string,
      }),
    ]);
  });

  it("reports missing, unknown and mistyped inputs at their fields", () => {
    const found = problems(
      wrap(`    type: operation
    operation: http.request
    inputs:
      url: ftp://example.com/x
      methd: GET
      timeout: soon
      retryable_status_codes: [429, "x"]`),
    );
    expect(found).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          path: "states.op.inputs.methd",
          line: 9,
          message: expect.stringContaining('did you mean "method"') as string,
        }),
        expect.objectContaining({
          code: "WORKFLOW.VALIDATION.MISSING_FIELD",
          message: expect.stringContaining(
            'operation http.request needs the input "method"',
          ) as string,
          line: 8,
        }),
        expect.objectContaining({ path: "states.op.inputs.timeout", line: 10 }),
        expect.objectContaining({ path: "states.op.inputs.url", line: 8 }),
        expect.objectContaining({ path: "states.op.inputs.retryable_status_codes[1]", line: 11 }),
      ]),
    );
    expect(found).toHaveLength(5);
  });

  it("checks methods, backends and batch items", () => {
    const found = problems(
      wrap(`    type: operation
    operation: github.batch
    inputs:
      strategy: fastest
      operations:
        - name: github.add_label
          number: 1
        - name: github.add_comment
          number: 2`),
    );
    expect(found.map((f) => [f.path, f.line])).toEqual([
      ["states.op.inputs.strategy", 8],
      ["states.op.inputs.operations[0].name", 10],
      ["states.op.inputs.operations[1].body", 12],
    ]);
    expect(found[1]!.message).toContain('did you mean "github.add_labels"');
    expect(found[2]!.message).toContain('operation github.add_comment needs the input "body"');
    expect(
      problems(
        wrap(`    type: operation
    operation: notify.send
    inputs:
      backend: webhook
      message: hi`),
      ).map((f) => f.message),
    ).toEqual([expect.stringContaining('the webhook backend needs the input "webhook_url"')]);
    expect(
      problems(
        wrap(`    type: operation
    operation: http.request
    inputs:
      url: https://example.com
      method: patch`),
      ).map((f) => f.path),
    ).toEqual(["states.op.inputs.method"]);
  });

  it("accepts lower-case methods and refuses keys an operation state does not take", () => {
    expect(
      problems(
        wrap(`    type: operation
    operation: http.request
    inputs: { url: "https://example.com", method: get }`),
      ),
    ).toEqual([]);
    expect(
      problems(
        wrap(`    type: operation
    operation: http.request
    command: echo hi
    inputs: { url: "https://example.com", method: get }`),
      ).map((f) => f.path),
    ).toEqual(["states.op.command"]);
  });
});
