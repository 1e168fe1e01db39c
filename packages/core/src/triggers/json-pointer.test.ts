import { describe, expect, it } from "vitest";
import { AppError } from "../errors/app-error";
import { checkInputMap, mapInputs, resolvePointer } from "./json-pointer";

describe("JSON pointers (RFC 6901)", () => {
  const doc = {
    foo: ["bar", "baz"],
    "": 0,
    "a/b": 1,
    "m~n": 8,
    nested: { ref: "refs/heads/main" },
  };

  it("resolves the RFC's examples", () => {
    expect(resolvePointer(doc, "")).toBe(doc);
    expect(resolvePointer(doc, "/foo")).toEqual(["bar", "baz"]);
    expect(resolvePointer(doc, "/foo/0")).toBe("bar");
    expect(resolvePointer(doc, "/")).toBe(0);
    expect(resolvePointer(doc, "/a~1b")).toBe(1);
    expect(resolvePointer(doc, "/m~0n")).toBe(8);
    expect(resolvePointer(doc, "/foo/01")).toBeUndefined();
    expect(resolvePointer(doc, "/nope/x")).toBeUndefined();
    expect(resolvePointer(doc, "/constructor")).toBeUndefined();
  });

  it("maps body values over the defaults, leaving a default where nothing is found", () => {
    const inputs = mapInputs(
      { branch: "dev", mode: "fast" },
      { branch: "/nested/ref", who: "/foo/1", missing: "/x" },
      doc,
    );
    expect(inputs).toEqual({ branch: "refs/heads/main", mode: "fast", who: "baz" });
  });

  it("refuses a bad pointer or input name, naming the entry", () => {
    const refused = (map: Record<string, string>) => {
      try {
        checkInputMap(map);
      } catch (e) {
        return e instanceof AppError ? e.location?.path : "other";
      }
      return "ok";
    };
    expect(refused({ branch: "/ref" })).toBe("ok");
    expect(refused({ branch: "ref" })).toBe("inputMap.branch");
    expect(refused({ branch: "/a~2" })).toBe("inputMap.branch");
    expect(refused({ "1bad": "/a" })).toBe("inputMap.1bad");
  });
});

describe("notification endpoint URLs", async () => {
  const { checkEndpointUrl } = await import("./endpoint-url");
  const { parseEgressAllowList } = await import("../egress/egress-policy");
  const none = parseEgressAllowList("");
  const loopback = parseEgressAllowList("127.0.0.0/8,localhost");
  it("takes public https, and what the operator's allow-list names, plain http included", () => {
    expect(checkEndpointUrl("https://hooks.example.com/x", none)).toBe(
      "https://hooks.example.com/x",
    );
    expect(() => checkEndpointUrl("http://127.0.0.1:9000/hook", none)).toThrow(/loopback address/);
    expect(() => checkEndpointUrl("https://169.254.169.254/latest", none)).toThrow(/link-local/);
    expect(checkEndpointUrl("http://127.0.0.1:9000/hook", loopback)).toBe(
      "http://127.0.0.1:9000/hook",
    );
    expect(checkEndpointUrl("http://localhost/hook", loopback)).toBe("http://localhost/hook");
    expect(() => checkEndpointUrl("http://example.com/hook", none)).toThrow(/use https/);
    expect(() => checkEndpointUrl("https://u:p@example.com/", none)).toThrow(/password/);
    expect(() => checkEndpointUrl("ftp://example.com/", none)).toThrow(/only https/);
    try {
      checkEndpointUrl("http://10.0.0.1/", none);
    } catch (error) {
      expect(error).toMatchObject({ code: "USER.EGRESS.DENIED", location: { path: "url" } });
    }
  });
});
