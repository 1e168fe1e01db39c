// A small real MCP server for tests, over stdio (default) or streamable HTTP (`--http`,
// prints the port on stdout). Test-only; plain JavaScript so it starts without a loader.
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

const toolCount = Number(
  process.argv.find((a) => a.startsWith("--extra-tools="))?.split("=")[1] ?? 0,
);

const build = (auth) => {
  const server = new McpServer({ name: "fixture", version: "1.0.0" });
  server.registerTool(
    "echo",
    { description: "Echo the text back", inputSchema: { text: z.string() } },
    async ({ text }) => ({
      content: [{ type: "text", text }],
    }),
  );
  server.registerTool(
    "reveal",
    { description: "Return the credential this server was given", inputSchema: {} },
    async () => ({
      content: [
        { type: "text", text: `credential=${process.env.FIXTURE_TOKEN ?? auth ?? "none"}` },
      ],
    }),
  );
  server.registerTool(
    "weather",
    {
      description: "Structured weather report",
      inputSchema: { city: z.string() },
      outputSchema: { city: z.string(), celsius: z.number() },
    },
    async ({ city }) => ({
      content: [{ type: "text", text: `${city}: 21` }],
      structuredContent: { city, celsius: 21 },
    }),
  );
  server.registerTool(
    "sleep",
    { description: "Wait", inputSchema: { ms: z.number() } },
    async ({ ms }, extra) => {
      await new Promise((resolve) => {
        const t = setTimeout(resolve, ms);
        extra.signal.addEventListener("abort", () => {
          clearTimeout(t);
          resolve();
        });
      });
      return { content: [{ type: "text", text: `slept ${ms}` }] };
    },
  );
  server.registerTool("crash", { description: "Exit the server", inputSchema: {} }, async () =>
    process.exit(3),
  );
  for (let i = 0; i < toolCount; i++) {
    server.registerTool(
      `extra_${i}`,
      { description: `Extra tool number ${i}`, inputSchema: {} },
      async () => ({ content: [{ type: "text", text: `extra ${i}` }] }),
    );
  }
  return server;
};

if (process.argv.includes("--http")) {
  const http = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
    const auth = req.headers.authorization;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    const server = build(auth);
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  http.listen(0, "127.0.0.1", () => process.stdout.write(`${http.address().port}\n`));
} else {
  await build(undefined).connect(new StdioServerTransport());
}
