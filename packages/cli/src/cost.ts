export { usageCost } from "@yoake/pod";

/** `$0.0123`: four decimals, since one headless run often costs less than a cent. */
export function formatCost(dollars: number): string {
  return `$${dollars.toFixed(4)}`;
}
