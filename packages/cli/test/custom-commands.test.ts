import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { headlessFixturePerTest, toolResults, userTexts } from "./cli-test-kit.js";

const setUp = headlessFixturePerTest();

const answer = (text: string) => ({ blocks: [{ type: "text" as const, text }] });

describe("custom slash commands in headless runs", () => {
  it("expands /name args from the project's and the user's command files; the user's wins on a clash", async () => {
    const f = await setUp({
      ".yoake/commands/review.md":
        "---\ndescription: Review a file\nargument-hint: <file>\n---\nReview $ARGUMENTS for bugs. Then list what $ARGUMENTS exports.\n",
      ".yoake/commands/hello.md": "Say hello from the project.\n",
      ".yoake/commands/broken.md": "---\ndescription: [unclosed\n---\nbody\n",
    });
    const userCommands = path.join(f.env.XDG_CONFIG_HOME as string, "yoake", "commands");
    await mkdir(userCommands, { recursive: true });
    await writeFile(path.join(userCommands, "hello.md"), "Say hello from the user.\n");

    f.provider.enqueue(answer("reviewed"), answer("hello"), answer("as is"));
    const review = await f.run(["-p", "/review src/a.ts"]);
    expect(review.exitCode).toBe(0);
    expect(review.stderr).toMatch(/yoake: warning: .*broken\.md: its front matter is not valid YAML/);
    expect(userTexts(f.provider.requests[0]?.body)).toEqual([
      "Review src/a.ts for bugs. Then list what src/a.ts exports.",
    ]);

    await f.run(["-p", "/hello"]);
    expect(userTexts(f.provider.requests[1]?.body)).toEqual(["Say hello from the user."]);

    // Not a command: sent as typed.
    await f.run(["-p", "/etc/hosts looks odd"]);
    expect(userTexts(f.provider.requests[2]?.body)).toEqual(["/etc/hosts looks odd"]);
  });
});

describe("skills in headless runs", () => {
  it("lists the project's skills to the model and loads one, with its folder's files, when called", async () => {
    const f = await setUp({
      ".yoake/skills/release/SKILL.md":
        "---\nname: release\ndescription: Cut a release of this package\n---\nBump the version, then tag it.\n",
      ".yoake/skills/release/checklist.md": "- changelog\n",
    });
    f.provider.enqueue(
      { blocks: [{ type: "tool_call", name: "skill", arguments: { name: "release" } }] },
      answer("Following the release skill."),
    );
    const out = await f.run(["-p", "cut a release"]);
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toBe("Following the release skill.\n");
    const body = f.provider.requests[0]?.body as
      | { tools?: Array<{ name: string; description?: string }> }
      | undefined;
    const tools = body?.tools ?? [];
    expect(tools.find((tool) => tool.name === "skill")?.description).toContain(
      "- release: Cut a release of this package",
    );
    expect(toolResults(f.provider.requests[1]?.body)[0]?.content).toBe(
      "Skill release (project):\n\nBump the version, then tag it.\n\nFiles of this skill (read one with file):\nchecklist.md",
    );
  });
});
