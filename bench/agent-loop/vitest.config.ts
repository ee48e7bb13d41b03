import { defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

// @yoake/llm-worker through its sources, as in the root config.
const conditions = ["@yoake/source", ...defaultServerConditions];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ["src/**/*.test.ts"],
    reporters: ["default", "../../scripts/summary-reporter.ts"],
    testTimeout: 30_000,
  },
});
