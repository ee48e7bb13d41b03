import { describe, expect, it } from "vitest";
import { contentHash, ReadTracker } from "./read-tracker.js";

describe("ReadTracker", () => {
  it("allows a change only to a file read with the content it has now", () => {
    const tracker = new ReadTracker();
    expect(tracker.check("/p/a.ts", "one")).toEqual({ ok: false, reason: "unread" });
    tracker.record("/p/a.ts", Buffer.from("one"));
    expect(tracker.check("/p/a.ts", "one")).toEqual({ ok: true });
    expect(tracker.check("/p/a.ts", "two")).toEqual({ ok: false, reason: "changed" });
    expect(tracker.check("/p/b.ts", "one")).toEqual({ ok: false, reason: "unread" });
  });

  it("follows what was written, and forgets on request", () => {
    const tracker = new ReadTracker();
    tracker.record("/p/a.ts", "one");
    tracker.record("/p/a.ts", "two");
    expect(tracker.check("/p/a.ts", "two")).toEqual({ ok: true });
    tracker.forget("/p/a.ts");
    expect(tracker.has("/p/a.ts")).toBe(false);
  });

  it("hashes a string as its UTF-8 bytes", () => {
    expect(contentHash("é")).toBe(contentHash(Buffer.from("é", "utf8")));
    expect(contentHash("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });
});

describe("ReadTracker.paths", () => {
  it("lists every file read, the latest read last", () => {
    const tracker = new ReadTracker();
    tracker.record("/p/a.ts", "a");
    tracker.record("/p/b.ts", "b");
    tracker.record("/p/a.ts", "a2");
    expect(tracker.paths()).toEqual(["/p/b.ts", "/p/a.ts"]);
    tracker.forget("/p/b.ts");
    expect(tracker.paths()).toEqual(["/p/a.ts"]);
  });
});
