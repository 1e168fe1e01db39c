/**
 * The `agent` state of a test workflow: an openai_compatible agent step against the scripted
 * model, its key the team secret MODEL_KEY, going on to `next` when it succeeds.
 */
export const openAiAgentState = (
  modelUrl: string,
  prompt: string,
  next: string,
  /** Lines of the state after its timeout (indented four spaces, each ending in a newline). */
  extra = "",
) => `  agent:
    type: agent
    provider: openai_compatible
    prompt: ${prompt}
    options:
      base_url: ${modelUrl}/v1
      model: scripted-1
      api_key: "{{.env.MODEL_KEY}}"
    timeout: 2m
${extra}    on_success: ${next}
`;

/** The `mcp_proxy` lines of an agent state that reaches `connectors`, for openAiAgentState's `extra`. */
export const connectorLines = (...connectors: string[]) =>
  `    mcp_proxy:\n      connectors: [${connectors.join(", ")}]\n`;
