export * from "./snapshot-entries";
export * from "./read-folder";
export * from "./write-folder";
