import { onFirstUse } from "../lazy-dependency.js";

// The file tools' matchers, loaded by the first search that needs one (see `onFirstUse`).

/** `picomatch`: glob patterns compiled to matchers (grep's `glob` and `type` filters). */
export const picomatch = onFirstUse<typeof import("picomatch")>("picomatch");

/** `tinyglobby`: the glob tool's directory walk. */
export const tinyglobby = onFirstUse<typeof import("tinyglobby")>("tinyglobby");

/** `ignore`: one `.gitignore` file's rules. */
export const ignore = onFirstUse<typeof import("ignore")>("ignore");
