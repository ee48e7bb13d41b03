import type { ManifestLayer } from "./schema.js";

/** The instruction prompt when no manifest sets one. AGENTS.md, when present, is appended to it. */
export const DEFAULT_PROMPT = [
  "You are Yoake, a coding agent working in the user's project through file tools confined to a scope.",
  "Read a file before you change it, keep changes as small as the task allows, and say what you changed.",
  "When a tool refuses a path, do not try to reach it another way: tell the user what you needed and why.",
].join("\n");

/** Model requests in one run before it stops: a guard against loops, not a budget. */
export const DEFAULT_TURNS = 50;
/** Seed 004: tool output and file references are capped at 16 KB. */
export const DEFAULT_TOOL_OUTPUT_BYTES = 16_384;

/** A Pod hook's time limit when its entry sets no `timeout_ms`. */
export const DEFAULT_HOOK_TIMEOUT_MS = 60_000;

/** A `bash` command's time limit when neither the call nor `[shell] timeout_ms` gives one. */
export const DEFAULT_SHELL_TIMEOUT_MS = 120_000;
/** The longest time limit a `bash` call may ask for unless `[shell] max_timeout_ms` says otherwise. */
export const DEFAULT_SHELL_MAX_TIMEOUT_MS = 600_000;

/**
 * `[shell.limits]` when no manifest sets them: what one sandboxed command may take. A project
 * layer may lower them; raising one above what the layers below allow needs trust.
 */
export const DEFAULT_SHELL_LIMITS = {
  /** Processes of the command at once (RLIMIT_NPROC, counted in the sandbox's user namespace). */
  processes: 512,
  /** Memory of each process, in MiB (RLIMIT_DATA: V8 and WebAssembly reserve more address space than that). */
  memory_mb: 4096,
  /** Largest file a command may write, in MiB (RLIMIT_FSIZE). */
  file_size_mb: 1024,
  /** Size of the private /tmp (and of /dev/shm), in MiB. */
  tmp_mb: 512,
} as const;

/**
 * Files that hold secrets by convention, kept from the model (read, write, `@path`, listings) in
 * every directory: environment files and private keys. A manifest that needs one read replaces
 * this list (`[scope] secret_files`), which a project manifest may only do once trusted.
 */
export const DEFAULT_SECRET_FILES: readonly string[] = [
  ".env",
  ".env.*",
  "*.pem",
  "*.key",
  "id_rsa*",
  "id_dsa*",
  "id_ecdsa*",
  "id_ed25519*",
];

/**
 * The lowest layer of the cascade. Its scope lets the agent read and write the project, except
 * `.git` (history is the user's to change) and `.yoake` (the agent must not widen its own scope by
 * editing its manifest). Allow/deny lists are unions, so higher layers can only add to them; to
 * make the project read-only, deny write on ".".
 */
export const DEFAULT_LAYER: ManifestLayer = {
  model: { ref: "anthropic/claude-sonnet-5-5" },
  instructions: { prompt: DEFAULT_PROMPT, agents_md: true },
  generation: {},
  scope: {
    allow: [{ path: ".", access: "write", recursive: true }],
    deny: [
      { path: ".git", access: "write", recursive: true },
      { path: ".yoake", access: "write", recursive: true },
    ],
    secret_files: [...DEFAULT_SECRET_FILES],
  },
  tools: { approve: ["write_file", "edit_file"], disable: [] },
  limits: { turns: DEFAULT_TURNS, tool_output_bytes: DEFAULT_TOOL_OUTPUT_BYTES },
};
