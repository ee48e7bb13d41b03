/** How much an alert matters to the user. */
export type AlertLevel = "info" | "warn" | "error";

/**
 * Something the user should know that is not part of the conversation: a file reference that
 * could not be attached, a hook that failed or timed out, a hook that blocked a tool. Alerts are
 * Pod events, so every client receives them; the model never sees them.
 */
export interface Alert {
  level: AlertLevel;
  /** One sentence, with the reason. */
  message: string;
  /** What raised it: `file_ref`, `hook:<name>`, `approval`, ... */
  source: string;
}
