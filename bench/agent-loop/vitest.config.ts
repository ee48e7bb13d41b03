import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    reporters: ["default", "../../scripts/summary-reporter.ts"],
    testTimeout: 30_000,
  },
});
