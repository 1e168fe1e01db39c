import { Scrubber } from "@switchyard/core/secrets";
import { describe, expect, it } from "vitest";
import { grantScrubbers } from "./grant-scrubbers";

describe("grantScrubbers", () => {
  it("teaches every joined step a grant's new tokens, and a step that joins later the latest ones", () => {
    const scrubbers = grantScrubbers();
    const first = new Scrubber();
    const leave = scrubbers.join("cred-1", first);
    scrubbers.learn("cred-1", ["token-aaaaaaaaaaaa-one"]);
    expect(first.scrub("got token-aaaaaaaaaaaa-one")).not.toContain("token-aaaaaaaaaaaa-one");
    leave();
    // A token the worker still holds (client credentials kept until they expire) is used by
    // the next run: its scrubber knows it from the start.
    const next = new Scrubber();
    scrubbers.join("cred-1", next);
    expect(next.scrub("got token-aaaaaaaaaaaa-one")).not.toContain("token-aaaaaaaaaaaa-one");
    const other = new Scrubber();
    scrubbers.join("cred-2", other);
    expect(other.scrub("got token-aaaaaaaaaaaa-one")).toContain("token-aaaaaaaaaaaa-one");
  });
});
