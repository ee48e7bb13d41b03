export {
  type CatalogueMatch,
  catalogue,
  lookupModel,
  type ModelEntry,
  type ModelPrices,
  type ProviderEntry,
  parseModelRef,
} from "./manifest/catalogue.js";
export { DEFAULT_LAYER, DEFAULT_PROMPT } from "./manifest/defaults.js";
export {
  findProjectRoot,
  type LoadManifestOptions,
  loadManifest,
  PROJECT_DIR,
  userManifestPath,
} from "./manifest/load.js";
export { formatIssue, ManifestError, type ManifestIssue } from "./manifest/manifest-error.js";
export { parseOverrideAssignments } from "./manifest/overrides.js";
export type {
  GenerationSettings,
  Instructions,
  Limits,
  Manifest,
  ManifestLayerInfo,
  ResolvedModel,
  ToolSettings,
} from "./manifest/resolve.js";
export {
  type ManifestLayer,
  type ManifestLayerInput,
  manifestLayerSchema,
  validateLayer,
} from "./manifest/schema.js";
export { isCaseInsensitiveAt } from "./scope/case-sensitivity.js";
export type { Access, RuleKind, Scope, ScopeRule } from "./scope/rules.js";
export { ScopeError, type ScopeRefusal } from "./scope/scope-error.js";
export {
  type DirEntry,
  type EntryType,
  type FileInfo,
  type FilePrefix,
  type ScopeDecision,
  ScopedFs,
  type ScopedFsOptions,
} from "./scope/scoped-fs.js";
