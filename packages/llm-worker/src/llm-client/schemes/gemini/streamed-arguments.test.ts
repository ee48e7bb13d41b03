import { describe, expect, it } from "vitest";
import { parseJsonPath, StreamedArguments } from "./streamed-arguments.js";

describe("parseJsonPath", () => {
  it("reads member names, indices and bracketed names", () => {
    expect(parseJsonPath("$.a")).toEqual(["a"]);
    expect(parseJsonPath("$.recipe.ingredients[0].name")).toEqual(["recipe", "ingredients", 0, "name"]);
    expect(parseJsonPath("$['a b'][\"c.d\"]")).toEqual(["a b", "c.d"]);
    expect(parseJsonPath("city.name")).toEqual(["city", "name"]);
  });

  it("rejects paths that do not name one place", () => {
    for (const path of ["$", "", "$.", "$..a", "$.a[*]", "$[-1]", "$[x]", "$['a'", ".a", "$a"]) {
      expect(parseJsonPath(path), path).toBeUndefined();
    }
  });
});

describe("StreamedArguments", () => {
  it("starts from the call's own args without changing them", () => {
    const initial = { kept: "yes", nested: { a: 1 } };
    const args = new StreamedArguments(initial);
    expect(args.apply({ jsonPath: "$.nested.b", numberValue: 2 })).toBeUndefined();
    expect(JSON.parse(args.json())).toEqual({ kept: "yes", nested: { a: 1, b: 2 } });
    expect(initial).toEqual({ kept: "yes", nested: { a: 1 } });
  });

  it("appends string pieces only while the previous piece of the path continues", () => {
    const args = new StreamedArguments();
    args.apply({ jsonPath: "$.s", stringValue: "ab", willContinue: true });
    args.apply({ jsonPath: "$.s", stringValue: "cd", willContinue: true });
    args.apply({ jsonPath: "$.s", stringValue: "ef" });
    args.apply({ jsonPath: "$.t", stringValue: "x", willContinue: true });
    args.apply({ jsonPath: "$.u", numberValue: 1 });
    args.apply({ jsonPath: "$.t", stringValue: "y" });
    expect(JSON.parse(args.json())).toEqual({ s: "abcdef", t: "y", u: 1 });
  });

  it("reports pieces it cannot place", () => {
    const args = new StreamedArguments();
    args.apply({ jsonPath: "$.a", numberValue: 1 });
    expect(args.apply({ jsonPath: "$.a.b", numberValue: 2 })).toContain("conflicts");
    expect(args.apply({ jsonPath: "$.list[0]", numberValue: 1 })).toBeUndefined();
    expect(args.apply({ jsonPath: "$.list.x", numberValue: 1 })).toContain("conflicts");
    expect(args.apply({ jsonPath: "$[?(@.a)]", numberValue: 1 })).toContain("unsupported jsonPath");
    expect(args.apply({ stringValue: "x" })).toContain("without a jsonPath");
  });
});
