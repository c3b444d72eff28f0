/**
 * Durations as people read them ("350 ms", "1.2 s", "2 min 5 s"), the one way every view, log
 * line and message shows how long something took. Pure; the webviews use it too.
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 9_950) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 59_500) return `${Math.round(ms / 1000)} s`;
  const totalSeconds = Math.round(ms / 1000);
  if (totalSeconds < 3600) {
    const seconds = totalSeconds % 60;
    return `${Math.floor(totalSeconds / 60)} min${seconds ? ` ${seconds} s` : ''}`;
  }
  const minutes = Math.floor(totalSeconds / 60) % 60;
  return `${Math.floor(totalSeconds / 3600)} h${minutes ? ` ${minutes} min` : ''}`;
}
