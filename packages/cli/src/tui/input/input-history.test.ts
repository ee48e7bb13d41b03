import { describe, expect, it } from "vitest";
import {
  INPUT_HISTORY_LIMIT,
  inputHistoryOf,
  nextInput,
  previousInput,
  recordInput,
} from "./input-history.js";

describe("input history", () => {
  it("walks back and forth and gives back what was being written", () => {
    const history = recordInput(recordInput(inputHistoryOf(), "first"), "second");
    const up = previousInput(history, "draft");
    expect(up?.text).toBe("second");
    const upAgain = up && previousInput(up.history, "second");
    expect(upAgain?.text).toBe("first");
    expect(upAgain && previousInput(upAgain.history, "first")).toBeUndefined();
    const down = upAgain && nextInput(upAgain.history);
    expect(down?.text).toBe("second");
    const back = down && nextInput(down.history);
    expect(back?.text).toBe("draft");
    expect(back && nextInput(back.history)).toBeUndefined();
  });

  it("skips blanks and repeats, and keeps a bounded list", () => {
    let history = inputHistoryOf();
    for (const text of ["a", "a", "  ", "b"]) history = recordInput(history, text);
    expect(history.entries).toEqual(["a", "b"]);
    const long = inputHistoryOf(Array.from({ length: INPUT_HISTORY_LIMIT + 5 }, (_, i) => `n${i}`));
    expect(long.entries).toHaveLength(INPUT_HISTORY_LIMIT);
    expect(long.entries[0]).toBe("n5");
  });
});
