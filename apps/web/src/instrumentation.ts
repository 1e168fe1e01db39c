/**
 * Server boot hook. Node-only work lives in instrumentation-node.ts.
 */
export const register = async () => {
  if (process.env.NEXT_RUNTIME === "nodejs") await import("./instrumentation-node");
};
