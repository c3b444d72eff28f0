/** Stable command ids for prompts (`mcpWorkbench.prompt.<server>.<prompt>`), without `vscode`. */
import { PROMPT_COMMAND_PREFIX } from './commandIds';

function part(text: string): string {
  return text.replace(/[^A-Za-z0-9_.-]+/g, '_') || '_';
}

export interface PromptCommandSource {
  serverId: string;
  serverName: string;
  promptName: string;
}

/**
 * The command id of every prompt. Ids depend on names only, so a keybinding survives restarts
 * and config moves; when two servers share a name, the later ones (in the given order) get
 * `-2`, `-3`… after the server part.
 */
export function promptCommandIds<T extends PromptCommandSource>(prompts: readonly T[]): Map<string, T> {
  const serverPart = new Map<string, string>();
  const used = new Set<string>();
  for (const p of prompts) {
    if (serverPart.has(p.serverId)) continue;
    const base = part(p.serverName);
    let name = base;
    for (let n = 2; used.has(name); n++) name = `${base}-${n}`;
    used.add(name);
    serverPart.set(p.serverId, name);
  }
  const ids = new Map<string, T>();
  for (const p of prompts) {
    const id = `${PROMPT_COMMAND_PREFIX}${serverPart.get(p.serverId)}.${part(p.promptName)}`;
    if (!ids.has(id)) ids.set(id, p);
  }
  return ids;
}
