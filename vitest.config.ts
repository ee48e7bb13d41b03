import { defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

// The workspace packages are tested through their TypeScript sources: their package.json maps the
// "@yoake/source" condition to src/, where an installed package only has dist/.
// Without "module": Vite would resolve a dependency to its bundler build (@opentelemetry/api's
// build/esm, with extension-less imports), which Node then has to load and cannot.
const conditions = [
  "@yoake/source",
  ...defaultServerConditions.filter((condition) => condition !== "module"),
];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: [
      "packages/*/src/**/*.test.{ts,tsx}",
      "packages/*/test/**/*.test.{ts,tsx}",
      "bench/*/src/**/*.test.ts",
      "test/**/*.test.ts",
    ],
    reporters: ["default", "./scripts/summary-reporter.ts"],
    testTimeout: 20_000,
    // Two files at once even on two cores (vitest's default there is one): most of the suite waits
    // on the processes it starts (bubblewrap, git, PostgreSQL, npm, tmux), not on the CPU.
    maxWorkers: 2,
  },
});
