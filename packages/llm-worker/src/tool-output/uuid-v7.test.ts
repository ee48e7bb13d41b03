import { validate, version } from "uuid";
import { describe, expect, it } from "vitest";
import { isUuid, uuidV7 } from "./uuid-v7.js";

describe("uuidV7", () => {
  it("makes version 7 UUIDs that the uuid package accepts", () => {
    for (let i = 0; i < 100; i++) {
      const id = uuidV7();
      expect(validate(id)).toBe(true);
      expect(version(id)).toBe(7);
      expect(id).toBe(id.toLowerCase());
    }
  });

  it("puts the time in the first 48 bits", () => {
    const at = Date.UTC(2030, 0, 2, 3, 4, 5, 678);
    const id = uuidV7(at + 1e9);
    expect(Number.parseInt(id.replaceAll("-", "").slice(0, 12), 16)).toBe(at + 1e9);
  });

  it("sorts in the order made, many within one millisecond and past a clock that goes back", () => {
    const ids = Array.from({ length: 5000 }, () => uuidV7());
    ids.push(uuidV7(0), uuidV7(0));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe("isUuid", () => {
  it("accepts what uuid's validate accepts", () => {
    const cases = [
      uuidV7(),
      "0190a6e5-3b4c-7d8e-9f01-23456789abcd",
      "0190A6E5-3B4C-7D8E-9F01-23456789ABCD",
      "00000000-0000-0000-0000-000000000000",
      "ffffffff-ffff-ffff-ffff-ffffffffffff",
      "0190a6e5-3b4c-0d8e-9f01-23456789abcd",
      "0190a6e5-3b4c-7d8e-cf01-23456789abcd",
      "0190a6e5-3b4c-7d8e-9f01-23456789abc",
      "../../etc/passwd",
      "",
      ` ${uuidV7()}`,
    ];
    for (const text of cases) expect(isUuid(text), text).toBe(validate(text));
  });
});
