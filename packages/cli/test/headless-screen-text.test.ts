/**
 * `yoake -p` with hostile bytes from the model and its tools: the text answer on stdout and the
 * progress lines on stderr hold placeholders, never a control sequence; JSON output keeps the
 * data as it was.
 */
import { describe, expect, it } from "vitest";
import { headlessFixturePerTest } from "./cli-test-kit.js";
import { foreignControls, HOSTILE_TEXT, setTitle } from "./screen-bytes.js";

const setUp = headlessFixturePerTest();

describe("yoake -p and untrusted bytes", () => {
  it("prints the answer and the progress lines as screen text", async () => {
    const f = await setUp({ "a.txt": "alpha\n" });
    f.provider.enqueue(
      {
        blocks: [
          {
            type: "tool_call",
            id: "toolu_1",
            name: "read_file",
            arguments: { path: `missing${setTitle("LABEL-TITLE")}\u202e.txt` },
          },
        ],
      },
      { blocks: [{ type: "text", text: HOSTILE_TEXT }] },
    );
    const out = await f.run(["-p", "look", "--verbose"]);
    expect(out.exitCode).toBe(0);
    expect(foreignControls(out.stdout)).toEqual([]);
    expect(foreignControls(out.stderr)).toEqual([]);
    expect(out.stdout).toContain("title ␛]0;PWNED-TITLE␇");
    expect(out.stdout).toContain("safe␍rm -rf ~ ␛[8mHIDDEN-TEXT␛[0m");
    expect(out.stdout).toContain("bidi ⟨U+202E⟩evil⟨U+202C⟩");
    expect(out.stdout).toContain("日本語 😀 the end ␛\n");
    // The call's label, as the terminal UI shows it.
    expect(out.stderr).toContain("· read_file missing␛]0;LABEL-TITLE␇⟨U+202E⟩.txt");
  });

  it("keeps the answer as data in JSON", async () => {
    const f = await setUp();
    f.provider.enqueue({ blocks: [{ type: "text", text: HOSTILE_TEXT }] });
    const out = await f.run(["-p", "look", "--output-format", "json"]);
    expect(out.exitCode).toBe(0);
    expect(JSON.parse(out.stdout).text).toBe(HOSTILE_TEXT);
  });
});
