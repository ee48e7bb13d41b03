/**
 * Skills through a real Pod, real skill folders (project and user) and the mock provider: the
 * listing the model gets, loading a skill and one of its files, and what stays out of reach.
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { answer, toolCall, usePodTestbed } from "../../test/support/pod-test-kit.js";

const bed = usePodTestbed();

const skillMd = (name: string, description: string, body: string) =>
  `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n${body}`;

describe("the skill tool", () => {
  it("lists project and user skills to the model and loads a body, a file, never beyond the folder", async () => {
    const { put, base, project, mock, createPod, sent } = bed();
    put(
      ".yoake/skills/release-notes/SKILL.md",
      skillMd(
        "release-notes",
        "Write release notes. Use when asked for a changelog.",
        "# Release notes\nFollow template.md.\n",
      ),
    );
    put(".yoake/skills/release-notes/template.md", "## Added\n## Fixed\n");
    put(".yoake/skills/other/SKILL.md", skillMd("other", "Another skill.", "Other body.\n"));
    put(".yoake/skills/broken/SKILL.md", "---\nname: broken\n---\nno description\n");
    writeFileSync(path.join(base, "secret.txt"), "TOP SECRET");
    symlinkSync(path.join(base, "secret.txt"), path.join(project, ".yoake/skills/other/leak.md"));
    const userSkill = path.join(base, "home", ".config", "yoake", "skills", "commit-style");
    mkdirSync(userSkill, { recursive: true });
    writeFileSync(
      path.join(userSkill, "SKILL.md"),
      skillMd("commit-style", "How the user writes commits.", "Imperative mood.\n"),
    );

    mock.enqueue(
      toolCall("skill", { name: "release-notes" }, "toolu_1"),
      toolCall("skill", { name: "release-notes", file: "template.md" }, "toolu_2"),
      toolCall("skill", { name: "release-notes", file: "../other/SKILL.md" }, "toolu_3"),
      toolCall("skill", { name: "other", file: "leak.md" }, "toolu_4"),
      toolCall("skill", { name: "nope" }, "toolu_5"),
      answer("done"),
    );
    const pod = await createPod();
    expect(
      pod.manifest.warnings.some((w) => w.includes("broken/SKILL.md") && w.includes("needs a description")),
    ).toBe(true);
    await pod.run("write the release notes");

    const first = JSON.parse(sent(0)) as { tools: Array<{ name: string; description: string }> };
    const description = first.tools.find((t) => t.name === "skill")?.description ?? "";
    expect(description).toContain("- release-notes: Write release notes. Use when asked for a changelog.");
    expect(description).toContain("- commit-style: How the user writes commits.");
    expect(description).not.toContain("broken");

    const results = JSON.parse(sent(5)).messages.flatMap((m: { content: unknown }) =>
      Array.isArray(m.content) ? m.content.filter((b: { type: string }) => b.type === "tool_result") : [],
    ) as Array<{ content: string; is_error?: boolean }>;
    expect(results[0]?.content).toContain("# Release notes\nFollow template.md.");
    expect(results[0]?.content).not.toContain("description:");
    expect(results[0]?.content).toContain("Files of this skill (read one with file):\ntemplate.md");
    expect(results[1]?.content).toBe("## Added\n## Fixed\n");
    expect(results[2]).toMatchObject({ is_error: true });
    expect(results[2]?.content).toContain("outside the skill's folder");
    expect(results[3]).toMatchObject({ is_error: true });
    expect(results[3]?.content).not.toContain("TOP SECRET");
    expect(results[4]?.content).toContain('no skill named "nope"');
    await pod.close();
  });

  it("is not offered when there are no skills", async () => {
    const { mock, createPod, sent } = bed();
    mock.enqueue(answer("hi"));
    const pod = await createPod();
    await pod.run("hello");
    expect(sent(0)).not.toContain('"name":"skill"');
    await pod.close();
  });
});
