export * from "./request-record";
export * from "./compare";
