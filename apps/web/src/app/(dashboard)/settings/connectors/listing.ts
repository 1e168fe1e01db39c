/**
 * A connector as the Connectors page lists it, and how the page names its parts.
 */
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "~/server/trpc/root";

export type Listing = inferRouterOutputs<AppRouter>["connectors"]["list"][number];

export const nameOf = (l: Listing) =>
  typeof l.definition.name === "string" ? l.definition.name : l.id;

/** `every lane`, or the lanes by name. */
export const lanesText = (lanes: unknown) => {
  const list = Array.isArray(lanes) ? (lanes as string[]) : [];
  return list.includes("*") ? "every lane" : list.length > 0 ? list.join(", ") : "no lane";
};
