/**
 * The browser tests' connectors folder: a whole MCP server over stdio in one file (the
 * worker runs it in the connector sandbox from /opt/connectors, with Debian's node and none
 * of the project's files). It answers initialize, lists one tool `echo` and returns its
 * arguments as text. The global setup writes it into a folder of its own, the worker's
 * SWITCHYARD_CONNECTORS_DIR.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";

export const ECHO_SERVER_FILE = "echo-server.cjs";

const ECHO_SERVER =
  'require("readline").createInterface({input:process.stdin}).on("line",l=>{const m=JSON.parse(l),t=m.method,p=m.params,r=t=="initialize"?{protocolVersion:p.protocolVersion,capabilities:{tools:{}},serverInfo:{name:"echo",version:"1"}}:t=="tools/list"?{tools:[{name:"echo",inputSchema:{type:"object"}}]}:t=="tools/call"?{content:[{type:"text",text:"echo "+JSON.stringify(p.arguments)}]}:0;m.id!=null&&console.log(JSON.stringify({jsonrpc:"2.0",id:m.id,...r?{result:r}:{error:{code:-32601,message:t}}}))})';

export const writeEchoConnector = (connectorsDir: string) =>
  writeFile(path.join(connectorsDir, ECHO_SERVER_FILE), `${ECHO_SERVER}\n`, { mode: 0o644 });
