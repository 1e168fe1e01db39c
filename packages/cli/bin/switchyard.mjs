#!/usr/bin/env node
// The `switchyard` command. Runs the built bundle in ../dist when it exists and no source it
// was built from changed since (see build.mjs); otherwise loads the TypeScript sources
// through tsx, which is slower to start but always current. SWITCHYARD_NO_DIST=1 forces tsx.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const dist = fileURLToPath(new URL("../dist/", import.meta.url));

const builtIsCurrent = () => {
  try {
    const {
      entry,
      started_at: startedAt,
      inputs,
    } = JSON.parse(readFileSync(path.join(dist, "inputs.json"), "utf8"));
    if (typeof entry !== "string" || typeof startedAt !== "number" || !Array.isArray(inputs))
      return undefined;
    for (const input of inputs) {
      if (statSync(path.resolve(dist, input)).mtimeMs > startedAt) return undefined;
    }
    return pathToFileURL(path.join(dist, entry));
  } catch {
    return undefined;
  }
};

const built = process.env.SWITCHYARD_NO_DIST === "1" ? undefined : builtIsCurrent();
let main;
if (built) {
  ({ main } = await import(built.href));
} else {
  const { register } = await import("tsx/esm/api");
  register();
  ({ main } = await import("../src/main.ts"));
}
process.exitCode = await main(process.argv.slice(2));
