/**
 * Reading what a step sent: its body up to the gateway's cap (nothing past the cap is
 * kept), and the model its JSON body names, found without building the document (the
 * meter's fallback when a response does not name one).
 */
import type { IncomingMessage } from "node:http";
import { JsonScanner } from "./json-scanner";

/** The body, or "too-large" as soon as it passes `max` bytes. Rejects if the client goes away. */
export const readBody = (req: IncomingMessage, max: number) =>
  new Promise<Buffer | "too-large">((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) return void chunks.push(chunk);
      req.off("data", onData);
      chunks.length = 0;
      resolve("too-large");
    };
    req.on("data", onData);
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
    req.on("close", () => {
      if (!req.complete) reject(new Error("the client went away"));
    });
  });

/** The top-level `model` of a JSON body. */
export const requestModel = (body: Buffer): string | undefined => {
  let model: string | undefined;
  const scanner = new JsonScanner(
    (path, value) => {
      if (path === "model" && typeof value === "string") model = value;
    },
    { maxDepth: 1, maxStringLength: 200 },
  );
  scanner.write(body.toString("utf8"));
  return model;
};
