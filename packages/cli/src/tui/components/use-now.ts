import { useEffect, useState } from "react";

/** `Date.now()`, refreshed every `intervalMs` while `active`: for elapsed times that tick. */
export function useNow(active: boolean, intervalMs = 200): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs]);
  return now;
}
