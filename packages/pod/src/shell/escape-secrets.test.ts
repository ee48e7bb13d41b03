/**
 * The escape suite for the project's secret files: real commands through the real `bash` tool in
 * the real bubblewrap sandbox try to read what `scope.secret_files` keeps from the file tools
 * (`.env`, `*.pem`, private keys, a secret-named directory, a hard link made on the host), at
 * several depths, by every route a model would take. None may show a secret's content, move a
 * secret away from its name or change it.
 */
import { randomBytes } from "node:crypto";
import { linkSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exitCode, type ShellBed, shellBed } from "../../test/support/shell-test-kit.js";

const SECRET = `PROJECTSECRET-${randomBytes(8).toString("hex")}`;

/** Each holds the secret, under a name `secret_files` matches by default (or inside such a directory). */
const SECRET_FILES = [
  ".env",
  ".env.local",
  "app/.env.production",
  "deploy/server.pem",
  "a/b/c/d/id_ed25519",
  "node_modules/pkg/test/fixture.key",
  "config/.env.d/db.txt",
];
/** A second name of `.env`, made on the host: the file tools refuse it, the sandbox must hide it too. */
const HARD_LINK = "notes/innocent.txt";

let bed: ShellBed;
let attempts = 0;
const leaks: string[] = [];

function hostSecrets(): string {
  return [...SECRET_FILES, HARD_LINK]
    .map((file) => {
      try {
        return `${file}=${readFileSync(path.join(bed.project, file), "utf8")}`;
      } catch (error) {
        return `${file}: ${(error as NodeJS.ErrnoException).code}`;
      }
    })
    .join("\n");
}

let snapshot: string;

async function attempt(command: string): Promise<string> {
  attempts++;
  const output = await bed.bash({ command, timeout_ms: 20_000 });
  const found: string[] = [];
  if (output.includes(SECRET)) found.push("read a secret");
  const state = hostSecrets();
  if (state !== snapshot) {
    found.push("moved or changed a secret");
    snapshot = state;
  }
  if (found.length > 0) leaks.push(`${command} → ${found.join(", ")}\n${output}`);
  return output;
}

beforeAll(async () => {
  const files: Record<string, string> = {
    "README.md": "# project\n",
    "public.txt": "nothing here\n",
    "notes/todo.txt": "todo\n",
  };
  for (const file of SECRET_FILES) files[file] = `${file}: ${SECRET}\n`;
  bed = await shellBed({ parentDir: "/var/tmp", shared: true, files });
  linkSync(path.join(bed.project, ".env"), path.join(bed.project, HARD_LINK));
  snapshot = hostSecrets();
});

afterAll(async () => {
  await bed.dispose();
});

describe("secret files in the project", () => {
  it("are listed but cannot be opened (a directory is empty); everything else reads as before", async () => {
    const listed = await bed.bash({ command: "ls -a . config; cat README.md notes/todo.txt" });
    expect(listed).toContain(".env.local");
    expect(listed).toContain("# project\ntodo\n");
    expect(exitCode(listed)).toBe(0);
    for (const file of [...SECRET_FILES.filter((f) => !f.startsWith("config/")), HARD_LINK])
      expect(await bed.bash({ command: `cat ${file}` })).toContain(`cat: ${file}: Permission denied`);
    expect(await bed.bash({ command: "ls -A config/.env.d | wc -l" })).toMatch(/^0\n/);
    // The check itself sees content that is not hidden.
    expect(await bed.bash({ command: `echo ${SECRET} > plain.txt; cat plain.txt` })).toContain(SECRET);
    await bed.bash({ command: "rm plain.txt" });
  });

  it("hundreds of generated attempts to read them all fail", async () => {
    const { project } = bed;
    const targets = [...SECRET_FILES, HARD_LINK];
    const spellings = (file: string) => [
      file,
      `${project}/${file}`,
      `/proc/self/root${project}/${file}`,
      `./${file}`,
      `app/../${file}`,
    ];
    const readers = [
      (t: string) => `cat ${t}`,
      (t: string) => `cp ${t} copy.txt && cat copy.txt; rm -f copy.txt`,
      (t: string) => `tar -cf - ${t} 2>/dev/null | strings`,
      (t: string) => `/usr/bin/python3 -c "print(open('${t}').read())"`,
      (t: string) => `node -e "process.stdout.write(require('fs').readFileSync('${t}', 'utf8'))"`,
      (t: string) => `ln ${t} hard.txt; cat hard.txt; rm -f hard.txt`,
      (t: string) => `ln -s ${t} soft.txt; cat soft.txt; rm -f soft.txt`,
      (t: string) => `mv ${t} moved.txt; cat moved.txt; mv moved.txt ${t}`,
      (t: string) => `dd if=${t} 2>/dev/null; base64 ${t} | base64 -d`,
      (t: string) => `while read -r line; do echo "$line"; done < ${t}`,
    ];
    const generated = targets.flatMap((t) => spellings(t).flatMap((s) => readers.map((r) => r(s))));
    // Whole-tree readers, and moving the directories above a secret.
    generated.push(
      "grep -r PROJECTSECRET . 2>/dev/null",
      "find . -type f -exec cat {} + 2>/dev/null | grep PROJECTSECRET",
      "find . -name '*.pem' -o -name '.env*' -o -name 'id_*' | xargs cat",
      "tar -cf - . 2>/dev/null | strings | grep PROJECTSECRET",
      "cp -r . /tmp/copy 2>/dev/null; grep -r PROJECTSECRET /tmp/copy",
      "cat config/.env.d/*; ls -la config/.env.d",
      "mv config cfg; cat cfg/.env.d/db.txt; mv cfg config",
      "mv a/b a/x; cat a/x/c/d/id_ed25519; mv a/x a/b",
      "mv node_modules nm; cat nm/pkg/test/fixture.key; mv nm node_modules",
      "mv deploy/server.pem deploy/x; rm -f deploy/server.pem; cat deploy/x",
      "rm -rf app; cat app/.env.production",
      "/usr/bin/python3 -c \"import os; fd = os.open('.env', os.O_RDONLY); print(os.read(fd, 999))\"",
      "exec 3< .env; cat <&3",
      `cat /proc/1/root${project}/.env`,
      "git init -q /tmp/r && cp .env /tmp/r/ && cd /tmp/r && git add . && git show :.env",
      "sqlite3 :memory: \"select readfile('.env')\" 2>/dev/null",
      "debugfs -R 'cat /.env' 2>/dev/null",
    );
    expect(generated.length).toBeGreaterThanOrEqual(300);
    for (const command of generated) await attempt(command);
    console.log(`secret files: ${attempts} attempts, ${leaks.length} leaks`);
    expect({ attempts, leaks }).toEqual({ attempts, leaks: [] });
  }, 900_000);

  it("a secret made after the shell started is hidden from the next command", async () => {
    await bed.bash({ command: "true" });
    writeFileSync(path.join(bed.project, "later.pem"), `${SECRET}\n`);
    expect(await bed.bash({ command: "cat later.pem" })).toContain("cat: later.pem: Permission denied");
  });
});
