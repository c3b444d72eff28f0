/**
 * Durations as people read them ("350 ms", "1.2 s", "2 min 5 s"), the one way every view, log
 * line and message shows how long something took, times of day ("14:05:09"), the one way
 * every view shows when something happened, and sizes ("1.5 KB"). Pure; the webviews use it too.
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

/**
 * "14:05:09" (with `millis`, "14:05:09.042") in local time, 24-hour whatever the locale: the
 * Inspector, Activity, Run Tool and approvals show the same clock, and a 12-hour locale's
 * "02:05:09 PM" beside a row's "14:05:09" reads as two different moments.
 */
export function timeOfDay(ms: number, millis = false): string {
  const d = new Date(ms);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const clock = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  return millis ? `${clock}.${pad(d.getMilliseconds(), 3)}` : clock;
}

/** A size in bytes as people read it: "512 B", "1.5 KB", "2.0 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
