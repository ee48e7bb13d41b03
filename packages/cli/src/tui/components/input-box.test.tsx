import { render } from "ink-testing-library";
import { describe, expect, it, vi } from "vitest";
import { hasControlCharacter } from "../input/key-stream.js";
import { InputBox, type InputBoxProps } from "./input-box.js";
import { KeyRouter } from "./key-router.js";

/** Longer than ink's render throttle (30 frames a second). */
const tick = () => new Promise((resolve) => setTimeout(resolve, 60));
/** Waits for a frame holding `text`: the file list loads asynchronously. */
const until = (frame: () => string | undefined, text: string) =>
  vi.waitFor(() => expect(frame()).toContain(text), { timeout: 2000, interval: 10 });
const files = ["README.md", "src/greet.ts", "src/farewell.ts", "test/greet.test.ts", "docs/guide.md"];

function box(overrides: Partial<InputBoxProps> = {}) {
  const submitted: string[] = [];
  const props: InputBoxProps = {
    isActive: true,
    onSubmit: (text) => {
      submitted.push(text);
      return true;
    },
    onEscape: vi.fn(),
    onInterrupt: vi.fn(),
    onExit: vi.fn(),
    onToggleThinking: vi.fn(),
    loadFiles: vi.fn(async () => ({ paths: files, truncated: false })),
    ...overrides,
  };
  return {
    ...render(
      <KeyRouter>
        <InputBox {...props} />
      </KeyRouter>,
    ),
    submitted,
    props,
  };
}

describe("InputBox", () => {
  it("filters the project's files as an @ reference is typed, and attaches the chosen one", async () => {
    const view = box();
    view.stdin.write("compare @gre");
    await until(view.lastFrame, "src/greet.ts");
    const frame = view.lastFrame() ?? "";
    expect(frame).toContain("src/greet.ts");
    expect(frame).toContain("test/greet.test.ts");
    expect(frame).not.toContain("README.md");
    expect(frame).not.toContain("farewell");
    expect(view.props.loadFiles).toHaveBeenCalledOnce();

    view.stdin.write("\x1b[B"); // Down: the second match
    await tick();
    view.stdin.write("\t");
    await tick();
    expect(view.lastFrame()).toContain("compare @test/greet.test.ts");
    expect(view.lastFrame()).not.toContain("src/greet.ts");

    view.stdin.write("now\r");
    await tick();
    expect(view.submitted).toEqual(["compare @test/greet.test.ts now"]);
    view.unmount();
  });

  it("sends a reference chosen last without the space the picker put after it", async () => {
    const view = box();
    view.stdin.write("explain @gre");
    await until(view.lastFrame, "src/greet.ts");
    view.stdin.write("\t");
    await until(view.lastFrame, "explain @src/greet.ts");
    view.stdin.write("\r");
    await vi.waitFor(() => expect(view.submitted).toEqual(["explain @src/greet.ts"]), { timeout: 2000 });
    view.unmount();
  });

  it("closes the picker on Esc without cancelling anything", async () => {
    const view = box();
    view.stdin.write("@zzz");
    await until(view.lastFrame, "no matching file");
    view.stdin.write("\x1b");
    await tick();
    expect(view.lastFrame()).not.toContain("no matching file");
    expect(view.props.onEscape).not.toHaveBeenCalled();
    view.stdin.write("\x1b");
    await tick();
    expect(view.props.onEscape).toHaveBeenCalledOnce();
    view.unmount();
  });

  it("brings back earlier inputs with Up and the draft with Down", async () => {
    const view = box({ initialHistory: ["first question"] });
    view.stdin.write("second question\r");
    await tick();
    view.stdin.write("draft");
    await tick();
    view.stdin.write("\x1b[A");
    await tick();
    expect(view.lastFrame()).toContain("second question");
    view.stdin.write("\x1b[A");
    await tick();
    expect(view.lastFrame()).toContain("first question");
    view.stdin.write("\x1b[B");
    await tick();
    view.stdin.write("\x1b[B");
    await tick();
    expect(view.lastFrame()).toContain("draft");
    view.unmount();
  });

  it("edits several lines with Ctrl+J and sends them whole", async () => {
    const view = box();
    view.stdin.write("line one");
    await tick();
    view.stdin.write("\n");
    await tick();
    view.stdin.write("line two");
    await tick();
    expect(view.lastFrame()).toMatch(/› line one\s*│\s*\n│\s+line two/);
    view.stdin.write("\r");
    await tick();
    expect(view.submitted).toEqual(["line one\nline two"]);
    view.unmount();
  });

  it("keeps the text when the submit is refused, and is not drawn while inactive", async () => {
    const view = box({ onSubmit: () => false });
    view.stdin.write("busy now\r");
    await tick();
    expect(view.lastFrame()).toContain("busy now");
    view.rerender(
      <KeyRouter>
        <InputBox {...view.props} onSubmit={() => false} isActive={false} />
      </KeyRouter>,
    );
    await tick();
    expect(view.lastFrame()).toBe("");
    view.unmount();
  });

  it("applies keys that came in one read one by one: Backspace, Ctrl+W and Ctrl+U edit, nothing raw is sent", async () => {
    const view = box();
    // Key repeat or a slow link: the whole line, its corrections and Enter in one chunk.
    view.stdin.write("hello world\x7f\x7f\x7f\x7f\x7fthere\r");
    await vi.waitFor(() => expect(view.submitted).toEqual(["hello there"]), { timeout: 2000 });
    view.stdin.write("drop these words\x17\x17keep\x15start again\x17over\r");
    await vi.waitFor(() => expect(view.submitted).toHaveLength(2), { timeout: 2000 });
    expect(view.submitted[1]).toBe("start over");
    expect(hasControlCharacter(view.submitted.join(""))).toBe(false);
    view.unmount();
  });

  it("inserts a bracketed paste without sending it, even when it ends with a line break", async () => {
    const view = box();
    view.stdin.write("see: ");
    view.stdin.write("\x1b[200~first line\r\nsecond line\n\x1b[201~");
    await until(view.lastFrame, "second line");
    expect(view.submitted).toEqual([]);
    view.stdin.write("end\r");
    await vi.waitFor(() => expect(view.submitted).toEqual(["see: first line\nsecond line\nend"]), {
      timeout: 2000,
    });
    view.unmount();
  });

  it("shows a long paste as [pasted N lines] and sends it whole", async () => {
    const view = box();
    const pasted = Array.from({ length: 12 }, (_, i) => `row ${i + 1}`).join("\n");
    // A terminal may split a paste over several reads; escape sequences inside are dropped.
    view.stdin.write(`\x1b[200~${pasted.slice(0, 20)}`);
    view.stdin.write(`\x1b[31m${pasted.slice(20)}\x1b[201~`);
    await until(view.lastFrame, "[pasted 12 lines]");
    expect(view.lastFrame()).not.toContain("row 12");
    view.stdin.write(" explain\r");
    await vi.waitFor(() => expect(view.submitted).toEqual([`${pasted} explain`]), { timeout: 2000 });
    view.unmount();
  });
});

describe("InputBox in a small terminal", () => {
  it("keeps a long single-line prompt to half the terminal, counting the rows it wraps to", async () => {
    const view = box();
    // ink-testing-library's terminal is 100 columns wide and has no height: give it 20 rows.
    Object.defineProperty(view.stdout, "rows", { value: 20, configurable: true });
    view.stdout.emit("resize");
    await tick();
    // 6,000 characters with no line break: 64 rows of the box's 94 columns.
    const prompt = Array.from({ length: 600 }, (_, i) => `w${String(i).padStart(4, "0")}.... `)
      .join("")
      .trimEnd();
    view.stdin.write(`\x1b[200~${prompt}\x1b[201~`);
    await until(view.lastFrame, "w0599");
    const frame = view.lastFrame() ?? "";
    // Half the terminal: 10 rows inside the two borders, under the blank line that sets the box apart.
    expect(frame.split("\n").length).toBeLessThanOrEqual(13);
    expect(frame).toMatch(/↑ \d+ more line\(s\)/);
    expect(frame).not.toContain("w0000");
    view.stdin.write("\r");
    await vi.waitFor(() => expect(view.submitted).toEqual([prompt]), { timeout: 2000 });
    view.unmount();
  });
});
