/**
 * The context policies the benchmark compares. Each gives the Worker its tools (the session's,
 * with the policy's output rule), and may add a BlobStore and interceptors. All run on the real
 * Worker; only ours uses the BlobStore and `pruneInterceptor` from src.
 */
import {
  type BlobStore,
  FsBlobStore,
  type Interceptor,
  pruneInterceptor,
  type Tool,
} from "../../../src/index.js";
import type { Session } from "../session.js";
import { StableIdBlobStore } from "../stable-ids.js";
import { type Disk, passThrough, sessionTools } from "../tools.js";
import { claudeCodeRule } from "./claude-code.js";
import { codexRule } from "./codex.js";
import { OpencodePrune, opencodeTruncateRule } from "./opencode.js";

export interface PolicySetup {
  tools: Tool[];
  blobStore?: BlobStore;
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
    name: "ours: stored summaries",
    label: "ours",
    prunes: false,
    ours: true,
    setup: (session, disk, blobDir) => ({
      tools: sessionTools(session.workspace, disk, passThrough),
      blobStore: new StableIdBlobStore(new FsBlobStore(blobDir)),
      prunes: noPrunes,
    }),
  },
  {
    name: "ours: stored summaries + prune",
    label: "ours + prune",
    prunes: true,
    ours: true,
    setup: (session, disk, blobDir) => {
      const prune = pruneInterceptor();
      let batches = 0;
      let pruned = 0;
      // Runs after the prune: counts the requests that pruned more than the one before.
      const counter: Interceptor = {
        name: "prune-counter",
        onPreRequest: () => {
          if (prune.pruner.prunedCallIds.size > pruned) batches++;
          pruned = prune.pruner.prunedCallIds.size;
          return undefined;
        },
      };
      return {
        tools: sessionTools(session.workspace, disk, passThrough),
        blobStore: new StableIdBlobStore(new FsBlobStore(blobDir)),
        interceptors: [prune, counter],
        prunes: () => batches,
      };
    },
  },
];
