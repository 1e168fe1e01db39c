export { startGitServer, type GitServer } from "./git-http-server";
