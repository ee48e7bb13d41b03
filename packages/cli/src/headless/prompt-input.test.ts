import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { CliError } from "../cli-error.js";
import { headlessPrompt } from "./prompt-input.js";

const terminal = { isTTY: true, async *[Symbol.asyncIterator]() {} };
const piped = (...chunks: Array<string | Uint8Array>) => Readable.from(chunks);

describe("headlessPrompt", () => {
  it("takes the -p text when standard input is a terminal, without reading it", async () => {
    expect(await headlessPrompt("  fix it ", terminal)).toBe("fix it");
  });

  it("takes standard input alone, its trailing newlines dropped", async () => {
    expect(await headlessPrompt(undefined, piped("line one\n", "line two\n\n"))).toBe("line one\nline two");
  });

  it("joins a UTF-8 character split across chunks", async () => {
    const bytes = Buffer.from("夜明け");
    expect(await headlessPrompt(undefined, piped(bytes.subarray(0, 4), bytes.subarray(4)))).toBe("夜明け");
  });

  it("puts the -p text first, then a blank line, then standard input", async () => {
    expect(await headlessPrompt("Explain:", piped("stack trace\n"))).toBe("Explain:\n\nstack trace");
  });

  it("refuses an empty prompt", async () => {
    await expect(headlessPrompt(undefined, piped("\n"))).rejects.toBeInstanceOf(CliError);
    await expect(headlessPrompt("   ", terminal)).rejects.toThrow(/no prompt/);
  });
});
