import { onFirstUse } from "../lazy-dependency.js";

/**
 * `smol-toml`, required by the first manifest file or `--set` there is to read: a project and a
 * user without one (a `yoake -p` in a fresh directory) start without it. One instance for both,
 * so that its `TomlError` is the class its `parse` throws.
 */
export const toml = onFirstUse<typeof import("smol-toml")>("smol-toml");
