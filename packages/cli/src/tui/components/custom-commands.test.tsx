import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Pod } from "@yoake/pod";
import { render } from "ink-testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import { noFiles, realPodTestbed, untilFrame as until } from "../../../test/support/real-pod-test-kit.js";
import { customSlashCommands } from "../../custom-commands/slash-command-files.js";
import { setCustomSlashCommands } from "../commands/slash-commands.js";
import { App } from "./app.js";

const bed = realPodTestbed();
afterEach(() => {
  setCustomSlashCommands([]);
});

describe("custom slash commands in the terminal UI", () => {
  it("completes /rev to the command, lists it in /help and sends the expanded file", {
    timeout: 60_000,
  }, async () => {
    const { mock, options } = bed();
    const opts = options();
    const dir = path.join(opts.cwd, ".yoake", "commands");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, "review.md"),
      "---\ndescription: Review a file\nargument-hint: <file>\n---\nReview $ARGUMENTS carefully.\n",
    );
    const pod = await Pod.create(opts);
    const loaded = await customSlashCommands(pod.manifest.projectRoot, opts.env ?? {});
    expect(setCustomSlashCommands(loaded.commands)).toEqual([]);
    mock.enqueue({ blocks: [{ type: "text", text: "Looks fine." }] });

    const view = render(<App pod={pod} title="yoake test" loadFiles={noFiles} />);
    await until(view.lastFrame, "yoake test");
    view.stdin.write("/help\r");
    await until(view.lastFrame, "/review <file>");
    expect(view.lastFrame()).toContain("Review a file (project)");
    view.stdin.write("/rev");
    await until(view.lastFrame, "/rev");
    view.stdin.write("\t");
    await vi.waitFor(() => expect(view.lastFrame()).toContain("/review "), { timeout: 30_000 });
    view.stdin.write("src/a.ts\r");
    await until(view.lastFrame, "Looks fine.");
    expect(JSON.stringify(mock.requests[0]?.body)).toContain("Review src/a.ts carefully.");
    view.unmount();
    await pod.close();
  });
});
