/**
 * The `agent` state of a test workflow: an openai_compatible agent step against the scripted
 * model, its key the team secret MODEL_KEY, going on to `next` when it succeeds.
 */
export const openAiAgentState = (modelUrl: string, prompt: string, next: string) => `  agent:
    type: agent
    provider: openai_compatible
    prompt: ${prompt}
    options:
      base_url: ${modelUrl}/v1
      model: scripted-1
      api_key: "{{.env.MODEL_KEY}}"
    timeout: 2m
    on_success: ${next}
`;
