/**
 * The context policies the benchmark compares. Each gives the Worker its tools (the session's,
 * with the policy's output rule), and may add a BlobStore and interceptors. All run on the real
 * Worker; only ours uses the BlobStore and `pruneInterceptor` from src.
 */
import {
  BLOB_STORE_PRUNE_OPTIONS,
  BLOB_STORE_TOOL_OUTPUT,
  type BlobStore,
  FsBlobStore,
  type Interceptor,
  type PruneOptions,
  pruneInterceptor,
  recallInterceptor,
  type Tool,
} from "../../../src/index.js";
import type { HistoryResultOptions } from "../../../src/tool-output/history-result.js";
import type { RecallOptions } from "../../../src/tool-output/recall.js";
import type { Session } from "../session.js";
import { StableIdBlobStore } from "../stable-ids.js";
import { type Disk, passThrough, sessionTools } from "../tools.js";
import { claudeCodeRule } from "./claude-code.js";
import { codexRule } from "./codex.js";
import { OpencodePrune, opencodeTruncateRule } from "./opencode.js";

export interface PolicySetup {
  tools: Tool[];
  blobStore?: BlobStore;
  toolOutput?: HistoryResultOptions;
  interceptors?: Interceptor[];
  /** How many times the context was pruned (a batch counts once). */
  prunes(): number;
}

export interface Policy {
  name: string;
  /** A column heading for the per-fact table. */
  label: string;
  /** Whether the policy prunes the context (the cache-write target compares against these). */
  prunes: boolean;
  /** Whether this is one of ours (the targets compare ours against the others). */
  ours: boolean;
  /** Whether this is the Pod's default policy, the one the targets are for. */
  pod?: boolean;
  /** `blobDir`: an empty directory for a blob store. */
  setup(session: Session, disk: Disk, blobDir: string): PolicySetup;
}

const noPrunes = (): number => 0;

export const POLICIES: readonly Policy[] = [
  {
    name: "everything inline",
    label: "inline",
    prunes: false,
    ours: false,
    setup: (session, disk) => ({
      tools: sessionTools(session.workspace, disk, passThrough),
      prunes: noPrunes,
    }),
  },
  {
    name: "Codex CLI: head + tail, 10 KiB",
    label: "Codex",
    prunes: false,
    ours: false,
    setup: (session, disk) => ({ tools: sessionTools(session.workspace, disk, codexRule), prunes: noPrunes }),
  },
  {
    name: "Claude Code: > 50,000 chars to a file, 2 KB preview",
    label: "Claude Code",
    prunes: false,
    ours: false,
    setup: (session, disk) => ({
      tools: sessionTools(session.workspace, disk, claudeCodeRule(disk)),
      prunes: noPrunes,
    }),
  },
  {
    name: "opencode: 2,000 lines / 50 KB + pointer, prune",
    label: "opencode",
    prunes: true,
    ours: false,
    setup: (session, disk) => {
      const prune = new OpencodePrune();
      return {
        tools: sessionTools(session.workspace, disk, opencodeTruncateRule(disk)),
        interceptors: [prune],
        prunes: () => prune.prunes,
      };
    },
  },
  {
    name: "ours, seed defaults: 800 B inline, 400 B summaries, prune with 3 protected turns",
    label: "ours (seed)",
    prunes: true,
    ours: true,
    setup: (session, disk, blobDir) => oursWith(session, disk, blobDir, {}),
  },
  {
    name: "ours, the Pod's policy: 1,536 tokens inline, 1.5 KB summaries, prune with a 4k-token tail, recall",
    label: "ours (Pod)",
    prunes: true,
    ours: true,
    pod: true,
    setup: (session, disk, blobDir) => {
      const tune = JSON.parse(process.env.TUNE ?? "{}");
      return oursWith(
        session,
        disk,
        blobDir,
        {
          ...BLOB_STORE_PRUNE_OPTIONS,
          ...tune.prune,
          config: { ...BLOB_STORE_PRUNE_OPTIONS.config, ...tune.config },
        },
        { ...BLOB_STORE_TOOL_OUTPUT, ...tune.output },
        tune.recall === false ? undefined : (tune.recall ?? {}),
      );
    },
  },
];

/** The Worker's BlobStore and `pruneInterceptor` from src, with the given options. */
function oursWith(
  session: Session,
  disk: Disk,
  blobDir: string,
  prune: PruneOptions,
  toolOutput?: HistoryResultOptions,
  recall?: RecallOptions,
): PolicySetup {
  const interceptor = pruneInterceptor(prune);
  const blobStore = new StableIdBlobStore(new FsBlobStore(blobDir));
  let batches = 0;
  let pruned = 0;
  // Runs after the prune: counts the requests that pruned more than the one before.
  const counter: Interceptor = {
    name: "prune-counter",
    onPreRequest: () => {
      if (interceptor.pruner.prunedCallIds.size > pruned) batches++;
      pruned = interceptor.pruner.prunedCallIds.size;
      return undefined;
    },
  };
  return {
    tools: sessionTools(session.workspace, disk, passThrough),
    blobStore,
    ...(toolOutput !== undefined && { toolOutput }),
    interceptors: [
      interceptor,
      counter,
      ...(recall === undefined ? [] : [recallInterceptor({ ...recall, store: blobStore })]),
    ],
    prunes: () => batches,
  };
}
