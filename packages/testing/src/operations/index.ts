export { githubStandIn, json, standIn, type Seen } from "./github-stand-in";
