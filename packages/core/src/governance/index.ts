export * from "./approval-rules";
export * from "./arguments-hash";
export * from "./waits";
export * from "./wait-answerer";
