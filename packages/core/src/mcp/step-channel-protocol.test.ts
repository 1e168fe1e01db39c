import { expect, test } from "vitest";
import { proxyMessage } from "./step-channel-protocol";

test("a proxy's fatal keeps a known code and turns an unknown one into a startup failure", () => {
  expect(
    proxyMessage.parse({ type: "fatal", code: "USER.MCP_PROXY.UNKNOWN_CONNECTOR", message: "m" }),
  ).toEqual({
    type: "fatal",
    code: "USER.MCP_PROXY.UNKNOWN_CONNECTOR",
    message: "m",
  });
  expect(
    proxyMessage.parse({ type: "fatal", code: "USER.NO_SUCH_CODE", message: "m" }),
  ).toMatchObject({
    code: "SYSTEM.MCP_PROXY.STARTUP",
  });
});
