import { otherMethods } from "~/server/http/other-methods";
import { handleTrpc } from "~/server/trpc/handle-trpc";
import { sessionContext } from "~/server/trpc/session-context";

const handler = (req: Request) => handleTrpc(req, sessionContext);

export { handler as GET, handler as POST };
export const { PUT, DELETE, PATCH, OPTIONS } = otherMethods(["GET", "POST"]);
