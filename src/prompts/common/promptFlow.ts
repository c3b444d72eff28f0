/**
 * The steps of running a prompt, shared by the command, the dynamic prompt commands and the
 * `@mcp /prompt` chat command: choose a prompt, fill its arguments (with server completions),
 * then `prompts/get`. Pure: the questions go to a PromptPrompter (the quick-input one is
 * src/prompts/promptPrompter.ts), the servers are the protocol core's connections.
 */
import type { GetPromptResult, Prompt, PromptArgument } from '@modelcontextprotocol/client';
import type { McpServerConnection } from '../../mcp/connection/serverConnection';
import { completeArgument } from '../../mcp/completions';
import type { ServerRegistry } from '../../mcp/serverRegistry';

/** Returned by `ask` when the user pressed Back. */
export const BACK = 'back' as const;
export type Back = typeof BACK;

export interface PromptChoice {
  serverId: string;
  serverLabel: string;
  prompt: Prompt;
}

export interface ArgumentRequest {
  serverLabel: string;
  prompt: Prompt;
  argument: PromptArgument;
  step: number;
  totalSteps: number;
  /** The value given before (when coming back to this step). */
  value?: string;
  /** Values given so far (sent as completion context). */
  known: Readonly<Record<string, string>>;
  /** Server completions for a partial value; absent when the server has no `completions`. */
  suggest?: (value: string, signal?: AbortSignal) => Promise<string[]>;
  /** Whether Back leads somewhere (an earlier argument or the prompt list). */
  canGoBack: boolean;
  /** Aborts when the caller gave up (a cancelled chat request): close the question. */
  signal?: AbortSignal;
}

export interface PromptPrompter {
  /** The prompt to run, from all prompts of the running servers (grouped by server). */
  pickPrompt(choices: PromptChoice[], signal?: AbortSignal): Promise<PromptChoice | undefined>;
  /** One argument's value; `''` leaves an optional argument out; undefined cancels. */
  ask(request: ArgumentRequest): Promise<string | undefined | Back>;
}

export interface FilledPrompt {
  connection: McpServerConnection;
  prompt: Prompt;
  arguments: Record<string, string>;
}

export interface GotPrompt extends FilledPrompt {
  result: GetPromptResult;
}

/** Every prompt of every running server that offers prompts, in server order. */
export async function promptChoices(registry: Pick<ServerRegistry, 'all'>): Promise<PromptChoice[]> {
  const running = registry.all().filter((c) => c.state.kind === 'running' && c.advertises('prompts'));
  const lists = await Promise.all(running.map((c) => c.list('prompts').catch(() => [] as Prompt[])));
  return running.flatMap((c, i) => lists[i].map((prompt) => ({ serverId: c.definition.id, serverLabel: c.definition.label, prompt })));
}

/** `completion/complete` for one prompt argument, with the values given so far as context. */
export async function completePromptArgument(
  connection: McpServerConnection,
  promptName: string,
  argument: string,
  value: string,
  known: Record<string, string>,
  signal?: AbortSignal,
): Promise<string[]> {
  return completeArgument(connection, { type: 'ref/prompt', name: promptName }, { name: argument, value }, known, signal);
}

export interface FillOptions {
  /** Values that are not asked for. */
  preset?: Record<string, string>;
  /** Whether Back on the first argument returns `BACK` (to the prompt list). */
  canGoBackFromFirst?: boolean;
  /** Gives up (returns undefined) when aborted, even if the prompter does not notice. */
  signal?: AbortSignal;
}

/**
 * The prompter's answer, or undefined as soon as `signal` aborts: a cancelled chat request
 * must not stay blocked on a question nobody will answer.
 */
function untilAborted<T>(answer: Promise<T>, signal: AbortSignal | undefined): Promise<T | undefined> {
  if (!signal) return answer;
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise<T | undefined>((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    answer.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Asks for the arguments not preset, one step each; Back returns to the previous step.
 * Empty optional values are left out. Returns undefined when cancelled, `BACK` when the user
 * went back from the first step (and was allowed to).
 */
export async function fillArguments(
  connection: McpServerConnection,
  prompt: Prompt,
  prompter: PromptPrompter,
  options: FillOptions = {},
): Promise<Record<string, string> | undefined | typeof BACK> {
  const declared = prompt.arguments ?? [];
  const preset = options.preset ?? {};
  const toAsk = declared.filter((a) => preset[a.name] === undefined);
  const values: Record<string, string> = {};
  const completes = connection.state.kind === 'running' && !!connection.state.capabilities.completions;
  for (let i = 0; i < toAsk.length;) {
    const argument = toAsk[i];
    const known = { ...preset, ...values };
    delete known[argument.name];
    const answer = await untilAborted(
      prompter.ask({
        serverLabel: connection.definition.label,
        prompt,
        argument,
        step: i + 1,
        totalSteps: toAsk.length,
        ...(values[argument.name] !== undefined ? { value: values[argument.name] } : {}),
        known,
        suggest: completes ? (value, signal) => completePromptArgument(connection, prompt.name, argument.name, value, known, signal) : undefined,
        canGoBack: i > 0 || options.canGoBackFromFirst === true,
        ...(options.signal ? { signal: options.signal } : {}),
      }),
      options.signal,
    );
    if (answer === undefined || options.signal?.aborted) return undefined;
    if (answer === BACK) {
      if (i === 0) return BACK;
      i--;
      continue;
    }
    values[argument.name] = answer;
    i++;
  }
  const args: Record<string, string> = {};
  for (const a of declared) {
    const v = preset[a.name] ?? values[a.name];
    if (v !== undefined && v !== '') args[a.name] = v;
  }
  for (const [k, v] of Object.entries(preset)) if (!(k in args) && v !== '') args[k] = v;
  return args;
}

/**
 * The whole interactive flow. With `choice` the prompt list is skipped; otherwise the user
 * picks, and Back from the first argument returns to the list.
 */
export async function choosePromptAndArguments(
  registry: Pick<ServerRegistry, 'all' | 'find'>,
  prompter: PromptPrompter,
  choice?: PromptChoice,
  preset?: Record<string, string>,
  signal?: AbortSignal,
): Promise<FilledPrompt | undefined> {
  for (;;) {
    let current = choice;
    if (!current) {
      const choices = await promptChoices(registry);
      if (!choices.length) throw new NoPromptsError();
      current = await untilAborted(prompter.pickPrompt(choices, signal), signal);
      if (!current || signal?.aborted) return undefined;
    }
    const connection = registry.find(current.serverId);
    if (!connection) return undefined;
    const args = await fillArguments(connection, current.prompt, prompter, { preset, canGoBackFromFirst: !choice, signal });
    if (args === undefined) return undefined;
    if (args === BACK) continue;
    return { connection, prompt: current.prompt, arguments: args };
  }
}

export class NoPromptsError extends Error {
  constructor() {
    super('No running MCP server offers prompts. Start a server that has prompts first.');
    this.name = 'NoPromptsError';
  }
}
