import { describe, expect, it } from "vitest";
import { yoakeInvocation } from "./invocation.js";

describe("yoakeInvocation", () => {
  it("says npx yoake when npm started yoake, else yoake", () => {
    expect(yoakeInvocation({ npm_command: "exec" })).toBe("npx yoake");
    expect(yoakeInvocation({ npm_command: "run-script" })).toBe("npx yoake");
    expect(yoakeInvocation({ PATH: "/usr/local/bin" })).toBe("yoake");
  });
});
