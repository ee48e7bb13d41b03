import path from "node:path";
import { type Tool, tool } from "@yoake/llm-worker";
import { z } from "zod";
import { parseFrontMatter } from "../markdown/front-matter.js";
import type { ScopedFs } from "../scope/scoped-fs.js";
import type { Skill } from "./skills.js";

/** The name the model calls the skill tool by. */
export const SKILL_TOOL = "skill";

/** The most files a skill's listing names. */
const MAX_LISTED_FILES = 200;

/**
 * `skill`: lists the available skills (names and descriptions) in its description, and loads one
 * on demand: its SKILL.md body with the list of the folder's other files, or one of those files.
 * Every read goes through the skills directory's read-only ScopedFs, and a file is looked for in
 * the skill's own folder only.
 */
export function createSkillTool(skills: readonly Skill[]): Tool {
  const byName = new Map(skills.map((skill) => [skill.name, skill]));
  const listing = skills.map((skill) => `- ${skill.name}: ${skill.description}`).join("\n");
  return tool({
    name: SKILL_TOOL,
    description:
      "Load a skill: instructions (and files) for a kind of task. Call it with the skill's name when a task matches its " +
      "description, before starting the task; then read any file the instructions mention with `file`.\n" +
      `Available skills:\n${listing}`,
    input: z.object({
      name: z.string().describe("The skill's name, as listed."),
      file: z
        .string()
        .optional()
        .describe(
          "A file of the skill's folder, relative to it (e.g. reference/api.md); left out, SKILL.md.",
        ),
    }),
    execute: async ({ name, file }) => {
      const skill = byName.get(name);
      if (skill === undefined)
        throw new Error(
          `no skill named ${JSON.stringify(name)}; the skills are: ${[...byName.keys()].join(", ")}`,
        );
      if (file === undefined || file === "" || file === "SKILL.md") {
        const { body } = parseFrontMatter(await skill.fs.readFile(`${skill.folder}/SKILL.md`));
        const files = (await filesOf(skill.fs, skill.folder)).filter((f) => f !== "SKILL.md");
        const listed =
          files.length === 0 ? "" : `\n\nFiles of this skill (read one with file):\n${files.join("\n")}`;
        return `Skill ${skill.name} (${skill.source}):\n\n${body.trim()}${listed}`;
      }
      const relative = path.posix.normalize(file.replaceAll("\\", "/"));
      if (relative.startsWith("../") || relative === ".." || path.posix.isAbsolute(relative))
        throw new Error(`${JSON.stringify(file)} is outside the skill's folder`);
      return skill.fs.readFile(`${skill.folder}/${relative}`);
    },
  });
}

/** The folder's files, relative to it, depth first, at most `MAX_LISTED_FILES`. */
async function filesOf(fs: ScopedFs, folder: string): Promise<string[]> {
  const files: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await fs.readdir(dir === "" ? folder : `${folder}/${dir}`)) {
      if (files.length >= MAX_LISTED_FILES) return;
      const relative = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (entry.type === "directory") await walk(relative);
      else if (entry.type === "file") files.push(relative);
    }
  };
  await walk("");
  return files;
}
