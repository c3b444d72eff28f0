/**
 * Which line of a dead server's stderr the one-line failure quotes. The last line is often
 * noise: Node ends a crash with its version banner ("Node.js v20.20.2"), Python and Node put
 * the stack after the error. The first line that reads as an error says what happened
 * (`SyntaxError: …`, `Error: Cannot find module …`, `ModuleNotFoundError: …`); without one,
 * the last line that is not a banner, a stack frame or a caret. The whole tail stays in the
 * details and the log.
 */

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
];

const MAX = 200;

/** The line of `tail` (stderr lines, oldest first) a failure message quotes, clipped; undefined when none. */
export function lastWords(tail: readonly string[]): string | undefined {
  const lines = tail.map((l) => l.trim()).filter(Boolean);
  const line = lines.find((l) => EXCEPTION.test(l) || ERROR_WORD.test(l))
    ?? lines.filter((l) => !NOISE.some((n) => n.test(l))).at(-1);
  return line === undefined ? undefined : line.length > MAX ? `${line.slice(0, MAX)}…` : line;
}
