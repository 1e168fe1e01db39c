/**
 * A stand-in of GitHub's REST API for the repository acme/widgets, and a small recording
 * HTTP server to serve it (and whatever else a test answers) on a loopback address: the
 * worker's and `switchyard run`'s github operations are tested against it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

/** A request as the stand-in saw it, its body read whole. */
export type Seen = {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
};

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => resolve(body));
  });

export const json = (res: ServerResponse, status: number, value: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
};

/**
 * Answers like GitHub's REST API for acme/widgets, under `prefix` (the part of the path
 * before `/repos`), to requests carrying `Bearer <token>`.
 */
export const githubStandIn =
  (token: string, prefix = "") =>
  (req: Seen, res: ServerResponse) => {
    if (req.headers.authorization !== `Bearer ${token}`)
      return json(res, 401, { message: "Bad credentials" });
    const path = req.url.slice(prefix.length);
    const issue = {
      number: 42,
      title: "Login fails",
      body: "Steps to reproduce",
      state: "open",
      labels: [{ name: "bug" }],
      html_url: "https://github.example/acme/widgets/issues/42",
    };
    if (req.method === "GET" && path === "/repos/acme/widgets/issues/42")
      return json(res, 200, issue);
    if (req.method === "GET" && path === "/repos/acme/widgets/pulls/7")
      return json(res, 200, {
        number: 7,
        title: "Add login",
        body: "",
        state: "open",
        head: { ref: "feature/login" },
        base: { ref: "main" },
        mergeable: true,
        merged_at: null,
        labels: [],
      });
    if (req.method === "POST" && path === "/repos/acme/widgets/pulls")
      return json(res, 422, {
        message: "Validation Failed",
        errors: [{ message: "A pull request already exists for acme:feature/login." }],
      });
    if (req.method === "GET" && path.startsWith("/repos/acme/widgets/pulls?"))
      return json(res, 200, [
        { number: 7, html_url: "https://github.example/acme/widgets/pull/7" },
      ]);
    if (req.method === "POST" && path === "/repos/acme/widgets/issues")
      return json(res, 201, {
        number: 43,
        html_url: "https://github.example/acme/widgets/issues/43",
      });
    const labels = /^\/repos\/acme\/widgets\/issues\/(\d+)\/labels$/.exec(path);
    if (req.method === "POST" && labels) {
      if (labels[1] === "2") return json(res, 404, { message: "Not Found" });
      const asked = (JSON.parse(req.body) as { labels: string[] }).labels;
      return json(res, 200, [{ name: "bug" }, ...asked.map((name) => ({ name }))]);
    }
    if (req.method === "POST" && path === "/repos/acme/widgets/issues/42/comments")
      return json(res, 201, { id: 9001, html_url: "https://github.example/c/9001" });
    if (req.method === "GET" && path.startsWith("/repos/acme/widgets/issues/42/comments"))
      return json(res, 200, [
        { id: 1, user: { login: "ana" }, body: "first", created_at: "2026-01-01T00:00:00Z" },
        { id: 2, user: { login: "bo" }, body: "second", created_at: "2026-01-02T00:00:00Z" },
      ]);
    return json(res, 404, { message: "Not Found" });
  };

/** An HTTP server on `host` (a free port) handing each request, body read, to `handle`. */
export const standIn = async (
  host: string,
  handle: (req: Seen, res: ServerResponse) => void,
): Promise<Server> => {
  const server = createServer((req, res) => {
    void readBody(req).then((body) =>
      handle({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body }, res),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return server;
};
