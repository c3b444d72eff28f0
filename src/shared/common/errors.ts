/**
 * What a caught value says. JavaScript can throw anything, so each catch needs the same two
 * lines to read a message from it; they live here once.
 */

/** The message of a thrown value: an Error's own message, anything else as text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A thrown value as an Error, for callbacks that take one (`onerror` of transports and servers). */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
