/**
 * The models the extension samples with, over every backend, in priority order: `vscode.lm`
 * chat models, the OpenAI-compatible endpoint, "answer by hand". Shared by sampling
 * (src/approval) and prompts/chat, which know it by its interface (common/modelService.ts).
 * API: `models()`, `pick(preferences)`, `generate(...)`.
 */
import * as vscode from 'vscode';
import { chooseModel, type ModelPreferencesLike } from './common/modelSelection';
import { ManualBackend, type ManualAnswer } from './common/manualBackend';
import type { ModelBackend, ModelInfo, ModelRequest, ModelResponse } from './common/modelBackend';
import { OPENAI_KEY_SECRET, OpenAiCompatibleBackend } from './common/openAiCompatibleBackend';
import { toolsUnsupportedMessage, type ModelService } from './common/modelService';
import { VscodeLmBackend } from './vscodeLmBackend';
import { userLevelValue } from '../shared/common/userSettings';
import { showInformationMessage } from '../shared/notifications';

export type { ModelInfo, ModelRequest, ModelResponse } from './common/modelBackend';

export class BackendModelService implements ModelService {
  constructor(
    readonly backends: readonly ModelBackend[],
    private readonly preferredId: () => string | undefined = () => undefined,
  ) {}

  /** The id of the user's `mcpWorkbench.models.preferred`, if set. */
  preferredModelId(): string | undefined {
    return this.preferredId();
  }

  /** Whether the model's backend can take `tools` and return tool calls. */
  supportsTools(model: ModelInfo): boolean {
    return this.backends.find((b) => b.kind === model.backend)?.supportsTools ?? false;
  }

  /** Every model available now, backends in priority order (a failing backend lists none). */
  async models(): Promise<ModelInfo[]> {
    const lists = await Promise.all(this.backends.map((b) => b.models().catch(() => [] as ModelInfo[])));
    return lists.flat();
  }

  /**
   * The model to use: the user's `mcpWorkbench.models.preferred` when available, else the
   * first matching a hint of the (MCP) model preferences, else the first available.
   */
  async pick(preferences?: ModelPreferencesLike, models?: ModelInfo[]): Promise<ModelInfo | undefined> {
    return chooseModel(models ?? (await this.models()), preferences, this.preferredId());
  }

  /** Generates with the model's backend; `onText` receives streamed chunks. */
  async generate(
    model: ModelInfo,
    request: ModelRequest,
    onText: (chunk: string) => void = () => undefined,
    signal: AbortSignal = new AbortController().signal,
  ): Promise<ModelResponse> {
    const backend = this.backends.find((b) => b.kind === model.backend);
    if (!backend) throw new Error(`No backend for model ${model.id}`);
    if (request.tools?.length && !backend.supportsTools) throw new Error(toolsUnsupportedMessage(model));
    return backend.generate(model, request, onText, signal);
  }
}

/** Asks for a hand-typed reply in an input box (callers outside the approval panel). */
export const answerInInputBox: ManualAnswer = async (request, signal) => {
  const last = [...request.messages].reverse().find((m) => m.role === 'user');
  const lastText = last?.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join(' ') ?? '';
  const source = new vscode.CancellationTokenSource();
  signal.addEventListener('abort', () => source.cancel());
  try {
    return await vscode.window.showInputBox(
      {
        title: vscode.l10n.t('Answer by hand: type the assistant message'),
        prompt: lastText.slice(0, 300),
        ignoreFocusOut: true,
      },
      source.token,
    );
  } finally {
    source.dispose();
  }
};

/**
 * The model service of the extension, reading the `mcpWorkbench.models.*` settings. Built once
 * by the composition root (src/extension.ts): sampling and prompts/chat share it, so a model
 * picked or configured once applies to both.
 */
export function createModelService(context: vscode.ExtensionContext): { service: BackendModelService; manual: ManualBackend } {
  const config = () => vscode.workspace.getConfiguration('mcpWorkbench.models');
  // Where the API key goes and which model answers unattended are the user's choice only.
  const userOnly = (key: string) => userLevelValue(config().inspect<string>(key), '').trim();
  const manual = new ManualBackend(answerInInputBox);
  const service = new BackendModelService(
    [
      new VscodeLmBackend(),
      new OpenAiCompatibleBackend(
        () => {
          const url = userOnly('openaiCompatible.url');
          return url ? { url, model: config().get<string>('openaiCompatible.model', '').trim() } : undefined;
        },
        () => Promise.resolve(context.secrets.get(OPENAI_KEY_SECRET)),
      ),
      manual,
    ],
    () => userOnly('preferred') || undefined,
  );
  return { service, manual };
}

/** "MCP: Set OpenAI-Compatible API Key": stores (or, when emptied, deletes) the key in SecretStorage. */
export async function setOpenAiApiKey(context: vscode.ExtensionContext): Promise<void> {
  const key = await vscode.window.showInputBox({
    title: vscode.l10n.t('API key for the OpenAI-compatible endpoint'),
    prompt: vscode.l10n.t("Kept in VS Code's secret storage. Leave empty to remove the stored key."),
    password: true,
    ignoreFocusOut: true,
  });
  if (key === undefined) return;
  if (key.trim()) await context.secrets.store(OPENAI_KEY_SECRET, key.trim());
  else await context.secrets.delete(OPENAI_KEY_SECRET);
  void showInformationMessage(key.trim() ? vscode.l10n.t('The API key is stored.') : vscode.l10n.t('The stored API key was removed.'));
}
