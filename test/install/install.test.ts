/**
 * The packages as a user gets them: packed with `npm pack`, installed with `npm install` into a
 * project outside the repository, then used from plain Node, from TypeScript, and as the `yoake`
 * command — on the Node that runs the tests (22 or later: the floor) and on Node 24 (the
 * registry's `node@24`, through `npx -p`).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type MockProvider, startMockProvider } from "@yoake/llm-worker/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXAMPLE_PROJECT_FILES, exampleModel, readmeExamples } from "./readme-examples.js";
import {
  buildAndPack,
  type CommandOutcome,
  createScratch,
  installTarballs,
  npmLocations,
  type PackedPackage,
  REPO_ROOT,
  run,
  type Scratch,
  succeed,
  userEnv,
} from "./scratch.js";

/** How each Node version is run: this process's own, and Node 24 from the registry. */
const NODES = {
  "this node": (command: readonly string[]) => command,
  "node 24": (command: readonly string[]) => ["npx", "-y", "-p", "node@24", "-c", command.join(" ")],
} as const;

/** No file of a tarball may be a test, a test helper, a fixture, a benchmark or build state. */
const NOT_SHIPPED = /(^|\/)(test|tests|__tests__|fixtures?|bench)\/|\.(test|bench)\.|test-kit|\.tsbuildinfo$/;

let scratch: Scratch;
let packed: PackedPackage[];
let provider: MockProvider;

beforeAll(async () => {
  scratch = createScratch();
  const tarballs = path.join(scratch.root, "tarballs");
  mkdirSync(tarballs);
  packed = await buildAndPack(tarballs);
  await installTarballs(scratch.app, packed);
  provider = await startMockProvider();
}, 900_000);

afterAll(async () => {
  await provider?.close();
  scratch?.remove();
}, 60_000);

/** Each step starts Node, npm or TypeScript afresh: minutes under a loaded CI, not seconds. */
const STEP_TIMEOUT = 300_000;

/** Runs a shell command line in the scratch project as a user would, `node` being `nodeVersion`'s. */
async function inApp(
  nodeVersion: keyof typeof NODES,
  command: readonly string[],
  extraEnv: Record<string, string> = {},
): Promise<CommandOutcome> {
  const [file, ...args] =
    nodeVersion === "this node" ? ["sh", "-c", command.join(" ")] : NODES[nodeVersion](command);
  const outcome = await run(file as string, args, {
    cwd: scratch.app,
    env: userEnv({ ...npmLocations(), ...extraEnv }),
  });
  // npm's own notices (about this machine's npm config, say) are not the program's output.
  return { ...outcome, stderr: outcome.stderr.replace(/^npm (warn|notice) .*\n/gm, "") };
}

/** `yoake <args>` as installed: through `npx` on the Node of this process, by name under Node 24's `npx -p`. */
function yoake(nodeVersion: keyof typeof NODES, ...args: string[]): string[] {
  return nodeVersion === "this node" ? ["npx", "yoake", ...args] : ["yoake", ...args];
}

describe("the packed tarballs", () => {
  it("hold the built package and nothing of its tests, fixtures or benchmarks", () => {
    expect(packed.map((entry) => entry.name)).toEqual([
      "@yoake/llm-worker",
      "@yoake/pod",
      "@yoake/fleet",
      "yoake",
    ]);
    for (const entry of packed) {
      // The command's bundle is its main module, which its bin imports; the libraries' their index.
      expect(entry.files).toContain(entry.name === "yoake" ? "dist/main.js" : "dist/index.js");
      expect(entry.files).toContain("dist/index.d.ts");
      // The demo's scratch project ships whole, its own tests included: the demo runs them.
      const shipped = entry.files.filter((file) => !file.startsWith("demo/project/"));
      expect(shipped.filter((file) => NOT_SHIPPED.test(file))).toEqual([]);
      expect(entry.files.filter((file) => file.startsWith("src/"))).toEqual([]);
    }
    const cli = packed.find((entry) => entry.name === "yoake");
    expect(cli?.files).toEqual(expect.arrayContaining(["bin/yoake.js", "demo/project/.yoake/manifest.toml"]));
  });
});

describe("the installed bundles", () => {
  it("hold each source module once: entry points share chunks instead of copies", () => {
    for (const entry of packed) {
      const root = path.join(scratch.app, "node_modules", entry.name);
      const files = readdirSync(path.join(root, "dist"), { recursive: true, encoding: "utf8" });
      const maps = files.filter((name) => name.endsWith(".js.map"));
      // Each JavaScript file is a bundle or a shared chunk of esbuild's, with its map.
      expect(maps.length).toBeGreaterThan(0);
      expect(files.filter((name) => name.endsWith(".js")).length).toBe(maps.length);
      const bundledIn = new Map<string, string[]>();
      for (const map of maps) {
        const mapPath = path.join(root, "dist", map);
        const { sources } = JSON.parse(readFileSync(mapPath, "utf8")) as { sources: string[] };
        for (const source of sources) {
          const module = path.relative(root, path.resolve(path.dirname(mapPath), source));
          bundledIn.set(module, [...(bundledIn.get(module) ?? []), map]);
        }
      }
      expect([...bundledIn].filter(([, bundles]) => bundles.length > 1)).toEqual([]);
      // Our sources only: dependencies stay imports, resolved from node_modules.
      expect([...bundledIn.keys()].filter((module) => !module.startsWith("src/"))).toEqual([]);
    }
  });
});

describe.each(Object.keys(NODES) as Array<keyof typeof NODES>)("installed, on %s", (nodeVersion) => {
  it(
    "is the Node version it says",
    async () => {
      const out = await inApp(nodeVersion, ["node", "--version"]);
      if (nodeVersion === "node 24") expect(out.stdout).toMatch(/^v24\./);
      else expect(out.stdout.trim()).toBe(process.version);
      // The packages' floor: Node 20 is out of support.
      expect(Number(/^v(\d+)\./.exec(out.stdout)?.[1])).toBeGreaterThanOrEqual(22);
    },
    STEP_TIMEOUT,
  );

  it(
    "a plain ESM script streams from the mock provider and runs a Worker with a zod tool",
    async () => {
      const out = await inApp(nodeVersion, ["node", "consumer.mjs"]);
      expect(out.stderr).toBe("");
      expect(out.code).toBe(0);
      expect(JSON.parse(out.stdout)).toEqual({
        streamed: "Streamed from the mock.",
        status: "finished",
        text: "2 + 3 = 5",
        toolResult: "5",
        requests: 3,
      });
    },
    STEP_TIMEOUT,
  );

  it(
    "a class exported by two entry points is one class",
    async () => {
      const out = await inApp(nodeVersion, ["node", "entries.mjs"]);
      expect(out.stderr).toBe("");
      expect(JSON.parse(out.stdout)).toEqual({
        podClient: true,
        protocolError: true,
        instanceAcross: true,
        name: "PodProtocolError",
      });
    },
    STEP_TIMEOUT,
  );

  it(
    "npx yoake --version and --help answer from the installed package",
    async () => {
      const version = await inApp(nodeVersion, yoake(nodeVersion, "--version"));
      expect(version).toMatchObject({ code: 0, stdout: "0.1.0\n" });
      const help = await inApp(nodeVersion, yoake(nodeVersion, "--help"));
      expect(help.code).toBe(0);
      expect(help.stdout).toContain("--prompt");
      expect(help.stdout).toContain("demo");
    },
    STEP_TIMEOUT,
  );

  it(
    "npx yoake -p answers through the mock provider",
    async () => {
      const project = path.join(scratch.root, `project-${nodeVersion.replace(" ", "")}`);
      mkdirSync(path.join(project, ".yoake"), { recursive: true });
      const before = provider.requests.length;
      provider.enqueue({ blocks: [{ type: "text", text: `Answered on ${nodeVersion}.` }] });
      const out = await inApp(nodeVersion, yoake(nodeVersion, "-p", "'Say hello'", "--cwd", project), {
        HOME: scratch.home,
        ANTHROPIC_API_KEY: "test-key",
        ANTHROPIC_BASE_URL: provider.baseURLFor("anthropic"),
      });
      expect(out.stderr).toBe("");
      expect(out).toMatchObject({ code: 0, stdout: `Answered on ${nodeVersion}.\n` });
      expect(provider.requests.length).toBe(before + 1);
    },
    STEP_TIMEOUT,
  );
});

describe("a TypeScript consumer", () => {
  it.each(["tsconfig.nodenext.json", "tsconfig.bundler.json"])(
    "type-checks against the installed declarations with %s (strict, no skipLibCheck)",
    async (tsconfig) => {
      await succeed("npx", ["tsc", "-p", tsconfig], { cwd: scratch.app, env: userEnv(npmLocations()) });
    },
    STEP_TIMEOUT,
  );
});

describe("the README examples, copied into the user's project as they are", () => {
  const examples = readmeExamples(REPO_ROOT);
  const sources = () => path.join(scratch.app, "readme-examples");
  const built = () => path.join(scratch.app, "readme-examples-built");
  const project = () => path.join(scratch.root, "readme-project");
  let model: MockProvider;

  beforeAll(async () => {
    model = await startMockProvider();
    model.setHandler(exampleModel);
    for (const [file, text] of Object.entries(EXAMPLE_PROJECT_FILES)) {
      mkdirSync(path.dirname(path.join(project(), file)), { recursive: true });
      writeFileSync(path.join(project(), file), text);
    }
    mkdirSync(sources(), { recursive: true });
    for (const example of examples)
      writeFileSync(
        path.join(sources(), `${example.name}.${example.language === "ts" ? "ts" : "mjs"}`),
        example.code,
      );
    const compilerOptions = {
      target: "ES2022",
      module: "nodenext",
      moduleResolution: "nodenext",
      strict: true,
      skipLibCheck: false,
      types: ["node"],
      rootDir: "readme-examples",
      outDir: "readme-examples-built",
    };
    writeFileSync(
      path.join(scratch.app, "tsconfig.readme.json"),
      JSON.stringify({ compilerOptions, include: ["readme-examples/*.ts"] }, null, 2),
    );
  }, STEP_TIMEOUT);

  afterAll(async () => {
    await model?.close();
  });

  it("are found in every README that has code", () => {
    const readmes = new Set(examples.map((example) => example.where.replace(/:\d+$/, "")));
    expect([...readmes].sort()).toEqual([
      "README.md",
      "packages/llm-worker/README.md",
      "packages/pod/README.md",
    ]);
  });

  it(
    "compile with tsc (strict, nodenext, no skipLibCheck)",
    async () => {
      const out = await run("npx", ["tsc", "-p", "tsconfig.readme.json"], {
        cwd: scratch.app,
        env: userEnv(npmLocations()),
      });
      expect(`${out.stdout}${out.stderr}`).toBe("");
      expect(out.code).toBe(0);
    },
    STEP_TIMEOUT,
  );

  it.each(examples.map((example) => [example.where, example] as const))(
    "%s runs to its end against a provider",
    async (_where, example) => {
      const program =
        example.language === "ts"
          ? path.join(built(), `${example.name}.js`)
          : path.join(sources(), `${example.name}.mjs`);
      const out = await run(process.execPath, [program], {
        cwd: project(),
        timeoutMs: 120_000,
        env: userEnv({
          HOME: scratch.home,
          XDG_CONFIG_HOME: path.join(scratch.home, "config"),
          XDG_STATE_HOME: path.join(scratch.home, "state"),
          ANTHROPIC_API_KEY: "test-key",
          ANTHROPIC_BASE_URL: model.baseURLFor("anthropic"),
          OPENAI_API_KEY: "test-key",
          OPENAI_BASE_URL: model.baseURLFor("openai-responses"),
        }),
      });
      expect(out.stderr).not.toMatch(/Error|unhandled/i);
      expect(out.code, out.stderr).toBe(0);
      // An example that prints how its run ended saw it end (past any pause for approval).
      if (/console\.log\((end\.)?result\.status\)/.test(example.code))
        expect(out.stdout).toMatch(/finished\n$/);
    },
    STEP_TIMEOUT,
  );
});
