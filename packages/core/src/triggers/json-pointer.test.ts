import { describe, expect, it } from "vitest";
import { AppError } from "../errors/app-error";
import { checkInputMap, mapInputs, resolvePointer } from "./json-pointer";

describe("JSON pointers (RFC 6901)", () => {
  const doc = { foo: ["bar", "baz"], "": 0, "a/b": 1, "m~n": 8, nested: { ref: "refs/heads/main" } };

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
    const inputs = mapInputs({ branch: "dev", mode: "fast" }, { branch: "/nested/ref", who: "/foo/1", missing: "/x" }, doc);
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
  it("takes https anywhere and http only on loopback", () => {
    expect(checkEndpointUrl("https://hooks.example.com/x")).toBe("https://hooks.example.com/x");
    expect(checkEndpointUrl("http://127.0.0.1:9000/hook")).toBe("http://127.0.0.1:9000/hook");
    expect(checkEndpointUrl("http://localhost/hook")).toBe("http://localhost/hook");
    expect(() => checkEndpointUrl("http://example.com/hook")).toThrow(/https/);
    expect(() => checkEndpointUrl("https://u:p@example.com/")).toThrow(/password/);
    expect(() => checkEndpointUrl("ftp://example.com/")).toThrow(/https/);
  });
});
