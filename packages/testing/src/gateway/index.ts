export * from "./gateway-kit";
