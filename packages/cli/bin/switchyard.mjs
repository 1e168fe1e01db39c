#!/usr/bin/env node
// The `switchyard` command. Loads the TypeScript sources through tsx's loader.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/main.ts");
process.exitCode = await main(process.argv.slice(2));
