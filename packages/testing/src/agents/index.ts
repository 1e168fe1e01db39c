export * from "./cli-step-kit";
export * from "./installed-agent";
export * from "./plain-spawn";
export * from "./run-in-step";
export * from "./six-builtins";
export * from "./step-processes";
export * from "./tool-search-step";
export * from "./write-read-step";
