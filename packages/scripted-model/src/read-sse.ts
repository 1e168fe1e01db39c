/**
 * Reads a server-sent event stream into its events, for tests that talk to the scripted
 * model (or any SSE endpoint) without a vendor SDK.
 */
export type SseEvent = { event?: string; data: string };

export const parseSse = (text: string): SseEvent[] =>
  text
    .split(/\r?\n\r?\n/)
    .map((block) => {
      let event: string | undefined;
      const data: string[] = [];
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      return data.length ? { ...(event ? { event } : {}), data: data.join("\n") } : undefined;
    })
    .filter((e): e is SseEvent => e !== undefined);

/** The JSON payloads of a response's events (a `[DONE]` marker is left out). */
export const readSseJson = async (
  response: Response,
): Promise<{ event?: string; data: unknown }[]> =>
  parseSse(await response.text())
    .filter((e) => e.data !== "[DONE]")
    .map((e) => ({ ...(e.event ? { event: e.event } : {}), data: JSON.parse(e.data) as unknown }));
