/**
 * Skills (SEP-2640) from the Servers tree: open a skill (its SKILL.md, read from the server and
 * verified by the SDK against the listed digest, size and frontmatter, shown in the markdown
 * preview), open it as text, and offer it to `@mcp` chat. The document is a read-only virtual
 * one (`mcp-skill:`), holding exactly the verified bytes; a SKILL.md that fails verification
 * is never shown: the user reads one line, the server's log has the details.
 */
import * as vscode from 'vscode';
import type { Workbench } from '../workbench';
import type { McpServerConnection } from '../mcp/connection/serverConnection';
import { SkillVerificationError, type Skill } from '../mcp/connection/serverSkills';
import { parseSkillDocument, SKILL_SCHEME, skillDocument, skillName, skillRefusal } from './common/skillText';
import { showErrorMessage, withNotificationProgress } from '../shared/notifications';
import { errorMessage } from '../shared/common/errors';
import { ServerCommands } from './common/commandIds';
import { registerCommandTable } from '../shared/commandTable';

/** What a tree skill node (or a caller) passes. */
export interface SkillRef {
  serverId: string;
  skillUri: string;
}

/** The chat participant's command that takes a skill as context (see src/chat/chatHandler.ts). */
export const SKILL_CHAT_COMMAND = 'skill';

export function registerSkillCommands(workbench: Workbench): vscode.Disposable[] {
  const { registry } = workbench;
  /** Verified SKILL.md texts by document URI, so reopening a tab does not read again. */
  const verified = new Map<string, string>();
  const changed = new vscode.EventEmitter<vscode.Uri>();

  const find = async (ref: SkillRef | undefined): Promise<{ connection: McpServerConnection; skill: Skill } | undefined> => {
    const connection = ref?.serverId ? registry.find(ref.serverId) : undefined;
    if (!connection || !ref?.skillUri) return undefined;
    const listing = connection.skills.cached() ?? (await connection.skills.list().catch(() => undefined));
    const skill = listing?.skills.find((s) => s.uri === ref.skillUri);
    return skill ? { connection, skill } : undefined;
  };

  /** Reads and verifies; the one-line refusal (or failure) when it cannot be shown. */
  const load = async (connection: McpServerConnection, skill: Skill): Promise<{ text: string } | { refusal: string }> => {
    try {
      const file = await connection.skills.read(skill);
      return { text: file.text ?? new TextDecoder().decode(file.bytes) };
    } catch (error) {
      if (error instanceof SkillVerificationError) return { refusal: skillRefusal(error.reason, skillName(skill), connection.definition.label) };
      return {
        refusal: vscode.l10n.t(
          'Could not read skill "{0}" of {1}: {2}. Check that the server runs, then open the skill again.',
          skillName(skill),
          connection.definition.label,
          errorMessage(error),
        ),
      };
    }
  };

  /** The verified document of a skill, or undefined after telling the user why not. */
  const open = async (ref: SkillRef | undefined): Promise<vscode.Uri | undefined> => {
    const found = await find(ref);
    if (!found) {
      void showErrorMessage(vscode.l10n.t('That skill is no longer listed by its server. Refresh the Servers view and try again.'));
      return undefined;
    }
    const { connection, skill } = found;
    const loaded = await withNotificationProgress({ title: vscode.l10n.t('Reading skill {0}…', skillName(skill)) }, () => load(connection, skill));
    if ('refusal' in loaded) {
      const showLog = vscode.l10n.t('Show Server Log');
      void showErrorMessage(loaded.refusal, showLog).then((answer) => answer === showLog && workbench.outputs.show(connection.definition));
      return undefined;
    }
    const uri = vscode.Uri.from({ scheme: SKILL_SCHEME, ...skillDocument(connection.definition.id, skill) });
    verified.set(uri.toString(), loaded.text);
    changed.fire(uri);
    return uri;
  };

  return [
    changed,
    vscode.workspace.registerTextDocumentContentProvider(SKILL_SCHEME, {
      onDidChange: changed.event,
      // A tab restored after a reload reads (and verifies) again; a refusal shows as its one line.
      provideTextDocumentContent: async (uri) => {
        const known = verified.get(uri.toString());
        if (known !== undefined) return known;
        const ref = parseSkillDocument(uri.path, uri.query);
        const found = ref && (await find(ref));
        if (!found) return vscode.l10n.t('This skill is not listed by a running server. Start the server and open the skill from the Servers view.');
        const loaded = await load(found.connection, found.skill);
        if ('refusal' in loaded) return loaded.refusal;
        verified.set(uri.toString(), loaded.text);
        return loaded.text;
      },
    }),
    ...registerCommandTable({
      [ServerCommands.openSkill]: async (ref?: SkillRef) => {
        const uri = await open(ref);
        if (uri) await vscode.commands.executeCommand('markdown.showPreview', uri);
        return uri?.toString();
      },
      [ServerCommands.openSkillSource]: async (ref?: SkillRef) => {
        const uri = await open(ref);
        if (!uri) return undefined;
        const document = await vscode.languages.setTextDocumentLanguage(await vscode.workspace.openTextDocument(uri), 'markdown');
        await vscode.window.showTextDocument(document, { preview: true });
        return uri.toString();
      },
      [ServerCommands.addSkillToChat]: async (ref?: SkillRef) => {
        const found = await find(ref);
        const query = `@mcp /${SKILL_CHAT_COMMAND} ${found ? `${found.connection.definition.name}/${skillName(found.skill)} ` : ''}`;
        // The participant reads and verifies the skill when the request is sent, not now.
        try {
          await vscode.commands.executeCommand('workbench.action.chat.open', { query, isPartialQuery: true });
        } catch {
          void showErrorMessage(vscode.l10n.t('This VS Code has no chat. Where it has, ask {0} in chat.', query.trim()));
        }
      },
    }),
  ];
}
