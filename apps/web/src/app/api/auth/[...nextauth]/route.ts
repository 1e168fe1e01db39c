import { handlers } from "~/server/auth/auth";
import { otherMethods } from "~/server/http/other-methods";

export const { GET, POST } = handlers;
export const { PUT, DELETE, PATCH, OPTIONS } = otherMethods(["GET", "POST"]);
