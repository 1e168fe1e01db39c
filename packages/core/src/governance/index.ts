export * from "./approval-rules";
export * from "./arguments-hash";
export * from "./waits";
export * from "./budget-limits";
export * from "./budget-meter";
export * from "./check-rule";
export * from "./step-rules";
export * from "./wait-answerer";
