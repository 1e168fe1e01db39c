#!/usr/bin/env node
// The `scripted-model` command: a scripted model endpoint for testing agent CLIs (see
// ../src/cli.ts). A test tool, so it loads its TypeScript sources through tsx.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/cli.ts");
process.exitCode = await main(process.argv.slice(2));
