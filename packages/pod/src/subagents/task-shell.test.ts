/**
 * A sub-agent's `bash` is confined to the child's scope, through the real `task` tool, real Pods,
 * real bubblewrap and the mock provider over HTTP: a read-only child's few hundred write attempts
 * change no file of the project; a writable child writes where the parent may; without a sandbox a
 * child has no `bash` at all; the child keeps the parent's secret files.
 */
import { createHash } from "node:crypto";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import type { MockReply, RecordedRequest } from "@yoake/llm-worker/testing";
import { describe, expect, it } from "vitest";
import { answer, toolCall } from "../../test/support/pod-test-kit.js";
import { useSessionTestbed } from "../../test/support/session-test-kit.js";

const bed = useSessionTestbed();

interface Body {
  messages: Array<{ role: string; content: Array<{ type: string; text?: string; content?: string }> }>;
  tools?: Array<{ name: string }>;
}
const bodyOf = (request: RecordedRequest) => request.body as Body;
const firstText = (request: RecordedRequest) => bodyOf(request).messages[0]?.content[0]?.text ?? "";
const results = (request: RecordedRequest) =>
  bodyOf(request).messages.flatMap((m) => m.content.filter((b) => b.type === "tool_result"));
const isChild = (request: RecordedRequest) => firstText(request).startsWith("CHILD");
const task = (prompt: string, extra: Record<string, unknown> = {}) =>
  toolCall("task", { description: "sub-agent", prompt, ...extra });

/** Every file, directory and link of the project (its session logs aside), with its content and mode. */
function snapshot(root: string): Map<string, string> {
  const seen = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      const relative = path.relative(root, full);
      // The Pod's own logs change as the children run: the host writes them, not the sandbox.
      if (relative === path.join(".yoake", "sessions")) continue;
      const info = lstatSync(full);
      const mode = (info.mode & 0o7777).toString(8);
      if (info.isSymbolicLink()) seen.set(relative, `link ${readlinkSync(full)}`);
      else if (info.isDirectory()) {
        seen.set(relative, `dir ${mode}`);
        walk(full);
      } else if (!info.isFile())
        // A FIFO or a device: its mode and kind say it exists (reading a FIFO would block).
        seen.set(relative, `special ${mode}`);
      else
        seen.set(
          relative,
          `file ${mode} ${createHash("sha256").update(readFileSync(full)).digest("hex")} ${info.nlink}`,
        );
    }
  };
  walk(root);
  return seen;
}

function changes(before: Map<string, string>, after: Map<string, string>): string[] {
  const changed: string[] = [];
  for (const [name, what] of after) if (before.get(name) !== what) changed.push(name);
  for (const name of before.keys()) if (!after.has(name)) changed.push(`${name} (gone)`);
  return changed;
}

/** Paths a write could aim at: new names, existing files, deep new ones, guarded ones, absolute ones. */
function targets(project: string): string[] {
  return [
    "new.txt",
    "README.md",
    "src/main.c",
    "src/new/deep.txt",
    "docs",
    ".git/config",
    ".yoake/manifest.toml",
    ".gitignore",
    "../outside.txt",
    path.join(project, "absolute.txt"),
  ];
}

/** Ways the model would write a file, each a template over a target `T`. */
const WRITES: ReadonlyArray<(t: string) => string> = [
  (t) => `echo pwned > ${t}`,
  (t) => `echo pwned >> ${t}`,
  (t) => `printf pwned > ${t}`,
  (t) => `: > ${t}`,
  (t) => `touch ${t}`,
  (t) => `mkdir ${t}.d`,
  (t) => `mkdir -p ${t}.d/inner`,
  (t) => `cp /etc/hostname ${t}`,
  (t) => `cp -r src ${t}.copy`,
  (t) => `mv ${t} ${t}.moved`,
  (t) => `mv README.md ${t}`,
  (t) => `rm -f ${t}`,
  (t) => `rm -rf ${t} src`,
  (t) => `echo pwned | tee ${t}`,
  (t) => `echo pwned | tee -a ${t}`,
  (t) => `python3 -c "open('${t}', 'w').write('pwned')"`,
  (t) => `python3 -c "import os; os.remove('${t}')"`,
  (t) => `node -e "require('fs').writeFileSync('${t}', 'pwned')"`,
  (t) => `node -e "require('fs').rmSync('${t}', { recursive: true, force: true })"`,
  (t) => `sed -i s/a/pwned/ ${t}`,
  (t) => `truncate -s 0 ${t}`,
  (t) => `dd if=/dev/zero of=${t} bs=1 count=8`,
  (t) => `ln -s /etc/passwd ${t}.link`,
  (t) => `ln README.md ${t}.hard`,
  (t) => `chmod 777 ${t}`,
  (t) => `perl -e 'open(my $f, ">", "${t}") or die $!; print $f "pwned"'`,
  (t) => `install -m 644 /dev/null ${t}`,
  (t) => `mkfifo ${t}.fifo`,
  (t) => `git init ${t}.repo`,
  (t) => `git add -A && git commit -qm pwned -- ${t}`,
];

describe("a sub-agent's shell", () => {
  it("is read-only for a read-only child: hundreds of generated writes change no file", async () => {
    const { open, mock, project, put } = bed();
    put("README.md", "a readme\n");
    put("src/main.c", "int main(void) { return 0; }\n");
    put("docs/guide.md", "a guide\n");
    put(".gitignore", "build/\n");
    put(".yoake/manifest.toml", "");
    // As the Pod will make it (owner-only): the snapshot compares what the sandbox did, not the Pod.
    chmodSync(path.join(project, ".yoake"), 0o700);
    const attempts = targets(project).flatMap((target) => WRITES.map((write) => write(target)));
    const perTurn = 30;
    mock.setHandler((request): MockReply => {
      if (isChild(request)) {
        const done = results(request).length;
        if (done >= attempts.length) return answer("tried them all");
        return {
          blocks: attempts.slice(done, done + perTurn).map((command, index) => ({
            type: "tool_call" as const,
            id: `toolu_w${done + index}`,
            name: "bash",
            arguments: { command },
          })),
        };
      }
      return results(request).length === 0 ? task("CHILD look around") : answer("done");
    });
    const pod = await open({
      taskLimits: { maxRunning: 1, maxPerSession: 1, maxDepth: 1, maxTurns: 40 },
      // A command that blocks (a FIFO opened where the writes succeeded) ends soon: the test fails, never hangs.
      overrides: { shell: { timeout_ms: 5_000 } },
    });
    const before = snapshot(project);
    const result = await pod.run("look around");
    expect(result).toMatchObject({ status: "finished", text: "done" });
    const changed = changes(before, snapshot(project));
    console.log(
      `read-only sub-agent: ${attempts.length} write attempts through bash, ${changed.length} files changed`,
    );
    expect(attempts.length).toBeGreaterThanOrEqual(300);
    expect(changed).toEqual([]);
    expect(existsSync(path.join(project, "..", "outside.txt"))).toBe(false);

    // The child did have bash, and every attempt ran (and was refused by the file system, not by a tool).
    const childRequests = mock.requests.filter(isChild);
    expect((bodyOf(childRequests[0] as RecordedRequest).tools ?? []).map((t) => t.name)).toContain("bash");
    const outputs = results(childRequests.at(-1) as RecordedRequest).map((r) => r.content ?? "");
    expect(outputs).toHaveLength(attempts.length);
    const readOnly = outputs.filter((text) => /Read-only file system/i.test(text));
    expect(readOnly.length).toBeGreaterThan(attempts.length / 2);
    // Outside the project, the child's private /tmp stays writable: the shell works, only the project is shut.
    expect(outputs.every((text) => /\[exit code \d+ · /.test(text))).toBe(true);
  }, 300_000);

  it("writes where the parent may, for a child that may write, and nowhere the scope guards", async () => {
    const { open, mock, project } = bed();
    mock.setHandler((request): MockReply => {
      if (isChild(request)) {
        const done = results(request).length;
        if (done === 0) return toolCall("bash", { command: "echo from the child > notes.txt" }, "toolu_a");
        if (done === 1) return toolCall("bash", { command: "echo x > .git/planted" }, "toolu_b");
        return answer("wrote notes.txt");
      }
      return results(request).length === 0 ? task("CHILD write the notes", { write: true }) : answer("ok");
    });
    const pod = await open({ overrides: { tools: { approve: [] } } });
    await pod.run("write notes");
    expect(readFileSync(path.join(project, "notes.txt"), "utf8")).toBe("from the child\n");
    expect(() => lstatSync(path.join(project, ".git", "planted"))).toThrow();
  }, 60_000);

  it("keeps the parent's secret files from the child's file tools", async () => {
    const { open, mock, put } = bed();
    put(".env", "API_TOKEN=hunter2-secret\n");
    mock.setHandler((request): MockReply => {
      if (isChild(request))
        return results(request).length === 0
          ? toolCall("read_file", { path: ".env" }, "toolu_env")
          : answer("could not read it");
      return results(request).length === 0 ? task("CHILD read the env") : answer("ok");
    });
    const pod = await open();
    await pod.run("read env");
    const child = mock.requests.filter(isChild).at(-1) as RecordedRequest;
    const read = results(child)[0] as { content?: string; is_error?: boolean };
    expect(read.is_error).toBe(true);
    expect(JSON.stringify(mock.requests.map((r) => r.body))).not.toContain("hunter2-secret");
  }, 60_000);

  it("does not exist without a sandbox: a child cannot be confined, nor ask for approvals", async () => {
    const { open, mock, project } = bed();
    mkdirSync(path.join(project, "src"), { recursive: true });
    writeFileSync(path.join(project, "src", "a.txt"), "a\n");
    mock.setHandler((request): MockReply => {
      if (isChild(request)) return answer("no shell here");
      return results(request).length === 0 ? task("CHILD look around") : answer("ok");
    });
    const pod = await open({ overrides: { shell: { sandbox: false } } });
    await pod.run("look");
    const parentTools = (bodyOf(mock.requests[0] as RecordedRequest).tools ?? []).map((t) => t.name);
    // The parent keeps its shell, each command asking first; the child has none.
    expect(parentTools).toContain("bash");
    const child = mock.requests.find(isChild) as RecordedRequest;
    expect((bodyOf(child).tools ?? []).map((t) => t.name)).not.toContain("bash");
  }, 60_000);
});
