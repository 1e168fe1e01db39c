export * from "./request-record";
