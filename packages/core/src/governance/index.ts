export * from "./approval-rules";
export * from "./arguments-hash";
export * from "./waits";
export * from "./check-rule";
export * from "./step-rules";
export * from "./wait-answerer";
