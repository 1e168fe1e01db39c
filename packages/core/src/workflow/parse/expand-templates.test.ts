/**
 * Templates as AWF's guide shows them: expansion with parameters and defaults, the using
 * state's transitions, nested templates, and each error at the using line in AWF's words.
 */
import { describe, expect, it } from "vitest";
import { parseWorkflow } from "./parse-workflow";
import { bundleTemplates, libraryOf } from "./template-library";
import { readTemplateFile } from "./read-template";

const AI_ANALYZE = `name: ai-analyze
parameters:
  - name: prompt
    required: true
  - name: model
    default: claude
  - name: timeout
    default: 120
states:
  ai-analyze:
    type: step
    command: "{{parameters.model}} -c '{{parameters.prompt}}'"
    timeout: "{{parameters.timeout}}"
    capture:
      stdout: analysis
`;

const HTTP_REQUEST = `name: http-request
parameters:
  - name: url
    required: true
  - name: method
    default: GET
  - name: headers
    default: ""
  - name: timeout
    default: 30
states:
  http-request:
    type: step
    command: |
      curl -s -X {{parameters.method}} \\
        {{parameters.headers}} \\
        --max-time {{parameters.timeout}} \\
        "{{parameters.url}}"
    timeout: "{{parameters.timeout}}"
`;

const library = bundleTemplates({
  ".awf/templates/ai-analyze.yaml": AI_ANALYZE,
  ".awf/templates/http-request.yaml": HTTP_REQUEST,
  "workflow.yaml": "not a template",
});

const parse = (source: string, templates = library) =>
  parseWorkflow(source, "w.yaml", undefined, { templates });

const API_CHECK = `name: api-check
version: "1.0.0"

inputs:
  - name: api_url
    type: string
    required: true

states:
  initial: health_check

  health_check:
    use_template: http-request
    parameters:
      url: "{{.inputs.api_url}}/health"
      timeout: 10
    on_success: fetch_data
    on_failure: error

  fetch_data:
    use_template: http-request
    parameters:
      url: "{{.inputs.api_url}}/data"
      method: GET
      headers: "-H 'Authorization: Bearer $API_TOKEN'"
    on_success: done
    on_failure: error

  done:
    type: terminal

  error:
    type: terminal
    status: failure
`;

describe("use_template", () => {
  it("expands AWF's api-check example: parameters, defaults and the using state's transitions", () => {
    const { workflow, errors, templates } = parse(API_CHECK);
    expect(errors).toEqual([]);
    const health = workflow!.states.get("health_check")!;
    expect(health.kind).toBe("step");
    if (health.kind !== "step") return;
    expect(health.command).toContain("curl -s -X GET");
    expect(health.command).toContain("--max-time 10");
    expect(health.command).toContain('"{{.inputs.api_url}}/health"');
    expect(health.timeoutMs).toBe(10_000);
    expect(health.onSuccess).toBe("fetch_data");
    expect(health.onFailure).toBe("error");
    expect(health.source.line).toBe(13);
    const fetch = workflow!.states.get("fetch_data")!;
    if (fetch.kind !== "step") throw new Error("step expected");
    expect(fetch.command).toContain("-H 'Authorization: Bearer $API_TOKEN'");
    expect(fetch.timeoutMs).toBe(30_000);
    expect(templates).toEqual([
      { name: "http-request", file: ".awf/templates/http-request.yaml", version: undefined },
    ]);
  });

  it("expands AWF's ai-analyze example with a default model and a capture", () => {
    const { workflow, errors } = parse(`name: my-workflow
states:
  initial: code_analysis
  code_analysis:
    use_template: ai-analyze
    parameters:
      prompt: "Analyze this code"
      model: gemini
    on_success: done
    on_failure: error
  done: { type: terminal }
  error: { type: terminal, status: failure }
`);
    expect(errors).toEqual([]);
    const s = workflow!.states.get("code_analysis")!;
    if (s.kind !== "step") throw new Error("step expected");
    expect(s.command).toBe("gemini -c 'Analyze this code'");
    expect(s.timeoutMs).toBe(120_000);
  });

  it("reports a missing required parameter at the using state, in AWF's words", () => {
    const { workflow, errors } = parse(`name: w
states:
  initial: a
  a:
    use_template: ai-analyze
    parameters:
      model: gemini
    on_success: done
  done: { type: terminal }
`);
    expect(workflow).toBeUndefined();
    expect(errors.map((e) => [e.code, e.message, e.location?.line])).toEqual([
      [
        "WORKFLOW.TEMPLATE.MISSING_PARAMETER",
        "states.a.parameters: template 'ai-analyze' missing required parameter 'prompt'",
        7,
      ],
    ]);
  });

  it("names an unknown parameter at its own line with the closest declared one", () => {
    const { errors } = parse(`name: w
states:
  initial: a
  a:
    use_template: ai-analyze
    parameters:
      prompt: hi
      modle: gemini
    on_success: done
  done: { type: terminal }
`);
    expect(errors.map((e) => [e.code, e.message, e.location?.line])).toEqual([
      [
        "WORKFLOW.TEMPLATE.UNKNOWN_PARAMETER",
        "states.a.parameters.modle: template 'ai-analyze' has no parameter 'modle' (did you mean 'model'?)",
        8,
      ],
    ]);
  });

  it("reports a template not found with the closest name, and nothing else about that state", () => {
    const { errors } = parse(`name: w
states:
  initial: a
  a:
    use_template: ai-analyse
    on_success: done
  done: { type: terminal }
`);
    expect(errors.map((e) => [e.code, e.message, e.location?.line])).toEqual([
      [
        "WORKFLOW.TEMPLATE.NOT_FOUND",
        "states.a.use_template: template 'ai-analyse' not found (did you mean 'ai-analyze'?)",
        5,
      ],
    ]);
  });

  it("detects circular template references and names the chain", () => {
    const circular = libraryOf([
      {
        name: "a",
        file: "a.yaml",
        source: "name: a\nstates:\n  a:\n    use_template: b\n",
      },
      {
        name: "b",
        file: "b.yaml",
        source: "name: b\nstates:\n  b:\n    use_template: a\n",
      },
    ]);
    const { errors } = parse(
      `name: w\nstates:\n  initial: s\n  s:\n    use_template: a\n    on_success: done\n  done: { type: terminal }\n`,
      circular,
    );
    expect(errors.map((e) => [e.code, e.message, e.location?.line])).toEqual([
      [
        "WORKFLOW.TEMPLATE.CIRCULAR_REFERENCE",
        "states.s.use_template: circular template reference detected: a -> b -> a",
        5,
      ],
    ]);
  });

  it("expands a template that uses another, passing its own parameters down", () => {
    const nested = libraryOf([
      {
        name: "greet",
        file: "greet.yaml",
        source:
          "name: greet\nparameters: [{ name: who, required: true }]\nstates:\n  greet:\n    type: step\n    command: echo hello {{parameters.who}}\n",
      },
      {
        name: "greet-world",
        file: "gw.yaml",
        source:
          "name: greet-world\nparameters: [{ name: planet, default: earth }]\nstates:\n  greet-world:\n    use_template: greet\n    parameters: { who: '{{parameters.planet}}' }\n",
      },
    ]);
    const { workflow, errors, templates } = parse(
      `name: w\nstates:\n  initial: s\n  s:\n    use_template: greet-world\n    on_success: done\n  done: { type: terminal }\n`,
      nested,
    );
    expect(errors).toEqual([]);
    const s = workflow!.states.get("s")!;
    if (s.kind !== "step") throw new Error("step expected");
    expect(s.command).toBe("echo hello earth");
    expect(s.onSuccess).toBe("done");
    expect(templates?.map((t) => t.name).sort()).toEqual(["greet", "greet-world"]);
  });

  it("places a problem inside the expanded state at the using line", () => {
    const bad = libraryOf([
      {
        name: "t",
        file: "t.yaml",
        source:
          "name: t\nstates:\n  t:\n    type: step\n    command: echo\n    retry: { max_attempts: lots }\n",
      },
    ]);
    const { errors } = parse(
      `name: w\nstates:\n  initial: s\n  s:\n    use_template: t\n    on_success: done\n  done: { type: terminal }\n`,
      bad,
    );
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((e) => e.location?.line === 5)).toBe(true);
  });

  it("refuses keys besides use_template, parameters, on_success and on_failure on a using state", () => {
    const { errors } = parse(`name: w
states:
  initial: a
  a:
    use_template: ai-analyze
    parameters: { prompt: hi }
    command: echo
    on_success: done
  done: { type: terminal }
`);
    expect(errors.map((e) => [e.code, e.location?.line])).toEqual([
      ["WORKFLOW.PARSE.UNKNOWN_FIELD", 7],
    ]);
  });

  it("without a library, says the template is not found", () => {
    const { errors } = parseWorkflow(
      "name: w\nstates:\n  initial: a\n  a: { use_template: x, on_success: d }\n  d: { type: terminal }\n",
    );
    expect(errors.map((e) => e.code)).toEqual(["WORKFLOW.TEMPLATE.NOT_FOUND"]);
  });
});

describe("template files", () => {
  it("reads AWF's template form", () => {
    const { template, errors } = readTemplateFile(AI_ANALYZE, "ai-analyze.yaml");
    expect(errors).toEqual([]);
    expect(template?.parameters).toEqual([
      { name: "prompt", required: true },
      { name: "model", required: false, default: "claude" },
      { name: "timeout", required: false, default: 120 },
    ]);
  });

  it("refuses a placeholder naming no declared parameter, at its line", () => {
    const { errors } = readTemplateFile(
      "name: t\nparameters: [{ name: url }]\nstates:\n  t:\n    type: step\n    command: curl {{parameters.urls}}\n",
      "t.yaml",
    );
    expect(errors.map((e) => [e.code, e.message, e.location?.line])).toEqual([
      [
        "WORKFLOW.TEMPLATE.UNKNOWN_PARAMETER",
        "states.t.command: template 't' uses undeclared parameter 'urls' (did you mean 'url'?)",
        6,
      ],
    ]);
  });

  it("refuses a template of several states none named after it", () => {
    const { errors } = readTemplateFile(
      "name: t\nstates:\n  a: { type: terminal }\n  b: { type: terminal }\n",
      "t.yaml",
    );
    expect(errors.map((e) => e.code)).toEqual(["WORKFLOW.VALIDATION.INVALID_VALUE"]);
  });
});
