export * from "./context-pruner.js";
export * from "./prune.js";
export * from "./prune-candidates.js";
export * from "./prune-plan.js";
export * from "./recall-interceptor.js";
export * from "./token-accounting.js";
export * from "./tokens.js";
