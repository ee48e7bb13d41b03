import { stat } from "node:fs/promises";
import path from "node:path";
import { userConfigPath } from "../manifest/user-config-dir.js";
import { parseFrontMatter, stringField } from "../markdown/front-matter.js";
import { ScopedFs } from "../scope/scoped-fs.js";

/**
 * An agent skill (the SKILL.md convention Claude Code, Codex and opencode share): a folder holding
 * `SKILL.md`, whose YAML front matter names it and says when to use it, and whose body (and any
 * other files of the folder) the model loads on demand with the `skill` tool.
 */
export interface Skill {
  name: string;
  description: string;
  source: "project" | "user";
  /** The folder's name under its skills directory. */
  folder: string;
  /** Reads below the skills directory only, read-only. */
  fs: ScopedFs;
}

export interface DiscoveredSkills {
  skills: Skill[];
  /** One line per folder that is not a usable skill (bad front matter, a missing field). */
  warnings: string[];
}

/** The spec's name rule: lower-case letters, digits and single hyphens, at most 64 characters. */
const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const MAX_NAME = 64;
const MAX_DESCRIPTION = 1024;
/** Front matter is read from this much of SKILL.md: a listing never reads a whole large file. */
const MAX_HEADER_BYTES = 16 * 1024;

/**
 * The skills of the project (`.yoake/skills/<folder>/SKILL.md`) and of the user
 * (`<config>/yoake/skills/<folder>/SKILL.md`). The user's wins on a name clash, so a cloned
 * repository cannot replace a skill the user relies on. Project skills need no trust: they are
 * instructions the model reads, like the project's files; anything a skill asks the model to run
 * still goes through the model's tools, scope and approvals.
 */
export async function discoverSkills(
  projectRoot: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<DiscoveredSkills> {
  const userRoot = userConfigPath(env, "skills");
  const projectRootDir = path.join(projectRoot, ".yoake", "skills");
  const warnings: string[] = [];
  const byName = new Map<string, Skill>();
  for (const [root, source] of [
    [projectRootDir, "project"],
    [userRoot, "user"],
  ] as const)
    for (const skill of await skillsIn(root, source, warnings)) byName.set(skill.name, skill);
  return { skills: [...byName.values()].sort((a, b) => a.name.localeCompare(b.name)), warnings };
}

async function skillsIn(root: string, source: Skill["source"], warnings: string[]): Promise<Skill[]> {
  const isDirectory = await stat(root).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isDirectory) return [];
  const fs = await ScopedFs.create({
    root,
    allow: [{ path: root, access: "read", recursive: true, source: "skills" }],
    deny: [],
  });
  const skills: Skill[] = [];
  for (const entry of await fs.readdir(".")) {
    if (entry.type !== "directory") continue;
    const file = path.join(root, entry.name, "SKILL.md");
    try {
      const { bytes } = await fs.readFilePrefix(`${entry.name}/SKILL.md`, MAX_HEADER_BYTES).catch(() => ({
        bytes: undefined,
      }));
      if (bytes === undefined) continue;
      const { data } = parseFrontMatter(bytes.toString("utf8"));
      const name = stringField(data, "name");
      const description = stringField(data, "description")?.trim();
      if (name === undefined || !NAME.test(name) || name.length > MAX_NAME)
        throw new Error("its front matter needs a name: lower-case letters, digits and hyphens, at most 64");
      if (description === undefined || description === "")
        throw new Error("its front matter needs a description of what the skill does and when to use it");
      skills.push({
        name,
        description: description.slice(0, MAX_DESCRIPTION),
        source,
        folder: entry.name,
        fs,
      });
    } catch (error) {
      warnings.push(`skill ${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return skills;
}
