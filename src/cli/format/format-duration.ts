/** Milliseconds for people: `0.42 ms`, `12.3 ms`, `1.25 s`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '?';
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  return `${ms.toFixed(2)} ms`;
}
