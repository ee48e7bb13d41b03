import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "packages/*/src/**/*.test.{ts,tsx}",
      "packages/*/test/**/*.test.{ts,tsx}",
      "bench/*/src/**/*.test.ts",
    ],
    reporters: ["default", "./scripts/summary-reporter.ts"],
    testTimeout: 20_000,
  },
});
