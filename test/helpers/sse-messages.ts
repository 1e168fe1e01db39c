/**
 * Reads a Server-Sent Events response the way a client does: messages split on blank
 * lines, with their id, event name and data (comments and keep-alives skipped).
 */
export type Message = { id?: string; event?: string; data: string };

/** Reads SSE messages from a response until `stop` says enough (or the stream ends). */
export const readMessages = async (
  res: Response,
  stop: (messages: Message[]) => boolean,
  timeoutMs = 30_000,
) => {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const messages: Message[] = [];
  let buffer = "";
  let ended = false;
  const deadline = Date.now() + timeoutMs;
  while (!stop(messages)) {
    if (Date.now() > deadline) throw new Error(`no end of stream; got ${JSON.stringify(messages)}`);
    const { value, done } = await reader.read();
    if (done) {
      ended = true;
      break;
    }
    buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const message: Message = { data: "" };
      let any = false;
      for (const line of block.split("\n")) {
        if (line.startsWith(":") || line === "") continue;
        const [field, ...rest] = line.split(":");
        const value = rest.join(":").replace(/^ /, "");
        if (field === "id") message.id = value;
        else if (field === "event") message.event = value;
        else if (field === "data") message.data += value;
        else continue;
        any = true;
      }
      if (any && (message.id !== undefined || message.event !== undefined)) messages.push(message);
    }
  }
  await reader.cancel().catch(() => undefined);
  return { messages, ended };
};
