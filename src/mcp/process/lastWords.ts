/**
 * Which line of a dead server's stderr the one-line failure quotes. The last line is often
 * noise: Node ends a crash with its version banner ("Node.js v20.20.2"), Python and Node put
 * the stack after the error. The first line that reads as an error says what happened
 * (`SyntaxError: …`, `Error: Cannot find module …`, `ModuleNotFoundError: …`); without one,
 * the last line that is not a banner, a stack frame or a caret. V8's own aborts come first: a
 * debugger pause can crash it ("# Check failed: …", then a native stack), and a heap limit ends
 * with "FATAL ERROR: … JavaScript heap out of memory". The whole tail stays in the details and
 * the log.
 */

/** V8's abort report: `# Check failed: …` says what; `# Fatal error in …, line 0` only where. */
const V8_CHECK = /^#\s*((?:Debug )?[Cc]heck failed:.*)$/;
const V8_FATAL = /^#\s*(Fatal (?:error|JavaScript).*)$/;
/** Node's out-of-memory line: `FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory`. */
const NODE_FATAL = /^FATAL ERROR:\s*\S/;

/** `SyntaxError: …`, `Error [ERR_X]: …`, `java.lang.IllegalStateException: …`, `Uncaught TypeError: …`. */
const EXCEPTION = /^(?:Uncaught\s+)?[\w.$]*(?:Error|Exception)(?:\s*\[[^\]]*\])?:\s*\S/;
/** `error: …`, `error[E0425]: …`, `fatal: …`, `panic: …`, `Exception in thread "main" …`. */
const ERROR_WORD = /^(?:(?:error|fatal|panic)(?:\[[^\]]*\])?:\s*\S|Exception in thread\b)/i;
/** Lines that never say what happened. */
const NOISE = [
  /^Node\.js v\d/, // Node's banner after an uncaught exception
  /^at\s/, // a JavaScript stack frame
  /^File ".*", line \d+/, // a Python stack frame
  /^Traceback \(most recent call last\):$/,
  /^\^+~*$/, // the caret under the offending code
  /^Emitted 'error' event/,
  /^#/, // the rest of V8's abort report
  /^-{3,}.*-{3,}$/, // "----- Native stack trace -----"
  /^\d+: 0x[0-9a-f]+/i, // a native stack frame
];

const MAX = 200;

/** The line of `tail` (stderr lines, oldest first) a failure message quotes, clipped; undefined when none. */
export function lastWords(tail: readonly string[]): string | undefined {
  const lines = tail.map((l) => l.trim()).filter(Boolean);
  const v8 = (pattern: RegExp) => lines.map((l) => pattern.exec(l)?.[1]).find((l) => l !== undefined);
  const line =
    v8(V8_CHECK) ??
    v8(V8_FATAL) ??
    lines.find((l) => NODE_FATAL.test(l) || EXCEPTION.test(l) || ERROR_WORD.test(l)) ??
    lines.filter((l) => !NOISE.some((n) => n.test(l))).at(-1);
  return line === undefined ? undefined : line.length > MAX ? `${line.slice(0, MAX)}…` : line;
}
