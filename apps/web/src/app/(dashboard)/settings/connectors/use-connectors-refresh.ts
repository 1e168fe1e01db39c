"use client";
/**
 * After a change to a connector: the connectors list and the lanes list (which shows what
 * names each lane) read again, then `then` (a form closing itself, say).
 */
import { useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "~/trpc/react";

export const useConnectorsRefresh = (then?: () => void) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.connectors.list.queryKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.lanes.list.queryKey() });
    then?.();
  };
};
