import { describe, expect, it } from "vitest";
import { manifestOverrides } from "./manifest-overrides.js";

describe("manifestOverrides", () => {
  it("is empty when no option overrides the manifest", () => {
    expect(manifestOverrides({ allow: [], deny: [] }, "/work")).toEqual({});
  });

  it("maps --model, --max-turns and --yes to their manifest keys", () => {
    expect(manifestOverrides({ model: "openai/gpt-5", maxTurns: 7, approveAll: true }, "/work")).toEqual({
      model: { ref: "openai/gpt-5" },
      limits: { turns: 7 },
      tools: { approve: [] },
      shell: { ask: false },
    });
  });

  it("resolves scope paths against the working directory, leaving ~/ to the manifest loader", () => {
    const layer = manifestOverrides(
      { allow: ["../docs", "~/notes"], allowWrite: ["/tmp/out"], deny: ["secrets"], denyWrite: ["vendor"] },
      "/work/app",
    );
    expect(layer.scope).toEqual({
      allow: [
        { path: "/work/docs", access: "read", recursive: true },
        { path: "~/notes", access: "read", recursive: true },
        { path: "/tmp/out", access: "write", recursive: true },
      ],
      deny: [
        { path: "/work/app/secrets", access: "read", recursive: true },
        { path: "/work/app/vendor", access: "write", recursive: true },
      ],
    });
  });
});
