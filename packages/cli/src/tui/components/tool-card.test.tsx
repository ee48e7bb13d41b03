import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import type { ToolCardState } from "../state/ui-state.js";
import { ToolCard } from "./tool-card.js";

const card = (overrides: Partial<ToolCardState>): ToolCardState => ({
  callId: "c1",
  name: "grep",
  argumentsText: "",
  phase: "streaming",
  ...overrides,
});

describe("ToolCard", () => {
  it("shows the arguments as they stream, then parsed, then the result", () => {
    const view = render(<ToolCard card={card({ argumentsText: '{"pattern":"TODO","pa' })} />);
    expect(view.lastFrame()).toContain("grep");
    expect(view.lastFrame()).toContain("writing arguments…");
    expect(view.lastFrame()).toContain('{"pattern":"TODO","pa');

    view.rerender(
      <ToolCard
        card={card({
          argumentsText: '{"pattern":"TODO","path":"src"}',
          arguments: { pattern: "TODO", path: "src" },
          phase: "running",
          startedAt: Date.now(),
        })}
      />,
    );
    expect(view.lastFrame()).toContain('grep "TODO" in src');
    expect(view.lastFrame()).toMatch(/running \d+\.\ds/);
    expect(view.lastFrame()).toContain('pattern: "TODO"');

    view.rerender(
      <ToolCard
        card={card({
          arguments: { pattern: "TODO", path: "src" },
          phase: "done",
          durationMs: 250,
          result: { summary: "3 lines | src/a.ts:1:// TODO", content: "src/a.ts:1:// TODO", isError: false },
        })}
      />,
    );
    expect(view.lastFrame()).toContain("done in 0.3s");
    expect(view.lastFrame()).toContain("⎿ 3 lines | src/a.ts:1:// TODO");
    view.unmount();
  });

  it("shows a stored output's summary, not just its pointer", () => {
    const content = "[blob:0190] text | 137 lines\n── head ──\nline one\nline two";
    const { lastFrame, unmount } = render(
      <ToolCard
        card={card({
          arguments: { pattern: "x" },
          phase: "done",
          result: { summary: "[blob:0190] text | 137 lines", content, isError: false },
        })}
      />,
    );
    expect(lastFrame()).toContain("⎿ stored: [blob:0190] text | 137 lines");
    expect(lastFrame()).toContain("── head ──");
    expect(lastFrame()).toContain("line two");
    unmount();
  });

  it("shows an edit's diff instead of the strings it replaced, and errors in full", () => {
    const diff = "--- a/a.ts\n+++ b/a.ts\n@@ -1 +1 @@\n-old\n+new";
    const edit = render(
      <ToolCard
        card={card({
          name: "edit_file",
          arguments: { path: "a.ts", old_string: "old", new_string: "new" },
          phase: "done",
          result: {
            summary: "6 lines | Edited a.ts",
            content: `Edited a.ts: replaced 1 occurrence.\n\n${diff}`,
            isError: false,
          },
        })}
      />,
    );
    expect(edit.lastFrame()).toContain("⎿ Edited a.ts: replaced 1 occurrence.");
    expect(edit.lastFrame()).toContain("+new");
    expect(edit.lastFrame()).not.toContain("old_string");
    edit.unmount();

    const failed = render(
      <ToolCard
        card={card({
          arguments: {},
          phase: "done",
          result: { summary: "1 lines | boom", content: "invalid regex: unclosed (", isError: true },
        })}
      />,
    );
    expect(failed.lastFrame()).toContain("failed");
    expect(failed.lastFrame()).toContain("invalid regex: unclosed (");
    failed.unmount();
  });

  it("says when a call was denied or never ran", () => {
    const denied = render(
      <ToolCard card={card({ arguments: {}, phase: "denied", deniedReason: "too risky" })} />,
    );
    expect(denied.lastFrame()).toContain("denied: too risky");
    denied.unmount();
    const skipped = render(<ToolCard card={card({ arguments: {}, phase: "not_run" })} />);
    expect(skipped.lastFrame()).toContain("not run");
    skipped.unmount();
  });

  it("shows controls in arguments and labels as the rest of the screen does, not as JSON escapes", () => {
    const args = { path: "a\x1b]0;T\x07.txt", pattern: "\x9b8m", mode: "\u202e" };
    const view = render(<ToolCard card={card({ name: "grep", arguments: args, phase: "ready" })} />);
    const frame = view.lastFrame() ?? "";
    expect(frame).toContain('grep "⟨U+009B⟩8m" in a␛]0;T␇.txt');
    expect(frame).toContain('path: "a␛]0;T␇.txt"');
    expect(frame).toContain('mode: "⟨U+202E⟩"');
    expect(frame).not.toContain("\\u001b");
    view.unmount();
  });

  it("keeps the last lines of a command's output on its card once the command has ended", () => {
    const output = Array.from({ length: 12 }, (_, i) => `out-${i + 1}`).join("\n");
    const bash = card({
      name: "bash",
      argumentsText: '{"command":"make"}',
      arguments: { command: "make" },
      phase: "running",
      startedAt: Date.now(),
      progress: `${output}\n`,
    });
    const view = render(<ToolCard card={bash} />);
    expect(view.lastFrame()).toContain("│ out-12");
    view.rerender(
      <ToolCard
        card={{ ...bash, phase: "done", durationMs: 1200, result: { summary: "exit 0", isError: false } }}
      />,
    );
    const frame = view.lastFrame() ?? "";
    expect(frame).toContain("done in 1.2s");
    expect(frame).toContain("│ out-9");
    expect(frame).toContain("│ out-12");
    expect(frame).not.toContain("│ out-8");
    view.unmount();
  });
});
