/**
 * The one fake of the chat tests: a language model (no LLM on the test machine), answering each
 * round with the parts `script` returns for the messages so far, and recording what it was sent.
 */
import * as vscode from 'vscode';

export type Part = vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart;

/** A model that answers each round with the parts the script returns for the messages so far. */
export function fakeModel(script: (messages: vscode.LanguageModelChatMessage[], options: vscode.LanguageModelChatRequestOptions, round: number) => Part[]) {
  const calls: { messages: vscode.LanguageModelChatMessage[]; options: vscode.LanguageModelChatRequestOptions }[] = [];
  const model = {
    id: 'fake',
    name: 'Fake',
    vendor: 'test',
    family: 'fake',
    version: '1',
    maxInputTokens: 100000,
    countTokens: async () => 1,
    sendRequest: async (messages: vscode.LanguageModelChatMessage[], options: vscode.LanguageModelChatRequestOptions = {}) => {
      calls.push({ messages: [...messages], options });
      const parts = script(messages, options, calls.length);
      return {
        stream: (async function* () {
          yield* parts;
        })(),
        text: (async function* () {
          for (const p of parts) if (p instanceof vscode.LanguageModelTextPart) yield p.value;
        })(),
      };
    },
  };
  return { model: model as unknown as vscode.LanguageModelChat, calls };
}

/** The text of a message: its text parts and its tool results' text. */
export function partText(message: vscode.LanguageModelChatMessage): string {
  return (message.content as unknown[])
    .map((p) =>
      p instanceof vscode.LanguageModelTextPart
        ? p.value
        : p instanceof vscode.LanguageModelToolResultPart
          ? p.content.map((c) => (c instanceof vscode.LanguageModelTextPart ? c.value : '')).join('')
          : '',
    )
    .join('');
}
