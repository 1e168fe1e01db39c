export { currentRequestId, requestIdOf, withRequestId } from "./request-context";
