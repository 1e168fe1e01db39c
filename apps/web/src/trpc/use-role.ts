"use client";
/**
 * The caller's role in the team the session acts in, for pages that hide what a role may
 * not use (a viewer's Run button, an admin's settings). Only what a page draws depends on
 * it: the server checks the role again on every call.
 */
import { useQuery } from "@tanstack/react-query";
import { roleAtLeast, type Role } from "@switchyard/core/policy";
import { useTRPC } from "./react";

/** The role, or undefined while it loads (show nothing role-bound until then). */
export const useRole = (): Role | undefined => {
  const trpc = useTRPC();
  return useQuery(trpc.teams.current.queryOptions(undefined, { staleTime: 30_000 })).data?.role;
};

/** Whether `role` (from useRole) is at least `needed`; false while the role loads. */
export const can = (role: Role | undefined, needed: Role) =>
  role !== undefined && roleAtLeast(role, needed);
