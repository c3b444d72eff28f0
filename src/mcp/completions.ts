/**
 * `completion/complete` for the quick picks that ask for a prompt's arguments and a resource
 * template's variables: one request shape for both, only the reference differs. No `vscode`.
 */
import type { CompleteRequestParams } from '@modelcontextprotocol/client';
import type { McpServerConnection } from './connection/serverConnection';

/** What a completion is for: a prompt by name, or a resource template by its URI template. */
export type CompleteRef = CompleteRequestParams['ref'];

/** Suggestions for one argument, given the ones already filled in; none when the server is not running. */
export async function completeArgument(
  connection: McpServerConnection,
  ref: CompleteRef,
  argument: { name: string; value: string },
  known: Record<string, string>,
  signal?: AbortSignal,
): Promise<string[]> {
  const client = connection.client;
  if (!client) return [];
  const context = Object.keys(known).length ? { context: { arguments: known } } : {};
  const result = await client.complete({ ref, argument, ...context }, { ...connection.requestOptions('completion/complete'), signal });
  return result.completion.values;
}
