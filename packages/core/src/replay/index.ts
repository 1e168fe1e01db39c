export * from "./canonical-json";
export * from "./continued-from";
export * from "./replay-book";
export * from "./request-record";
export * from "./recorded-result";
export * from "./replay-plan";
