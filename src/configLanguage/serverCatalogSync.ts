/**
 * Keeps the config language server told which servers the extension knows and what they last
 * listed (ServerCatalogNotification), for completion and checks in saved tests. The lists are
 * remembered per connection past a stop (a stopped server's cache is cleared, but its tools as
 * last listed are still the best word on them) and forgotten when the connection goes.
 */
import type { McpServerConnection } from '../mcp/connection/serverConnection';
import type { Workbench } from '../workbench';
import type { ServerCatalogParams } from './common/languageMessages';
import { catalogServer, type CatalogLists } from './common/serverCatalog';
import { DisposableStore } from '../shared/common/disposables';

/**
 * Bursts (a start changes the state and fetches three lists) make one message. Not a bound on
 * anything: the server answers from whatever it got last.
 */
const COALESCE_MS = 100;

export function syncServerCatalog(wb: Workbench, send: (params: ServerCatalogParams) => void): { dispose(): void; resend(): void } {
  const store = new DisposableStore();
  const remembered = new Map<McpServerConnection, CatalogLists>();
  let timer: NodeJS.Timeout | undefined;
  let lastSent: string | undefined;
  let lastInputs: unknown[] | undefined;
  let disposed = false;

  const remember = (c: McpServerConnection) => {
    const lists = remembered.get(c) ?? {};
    lists.tools = c.cached('tools') ?? lists.tools;
    lists.prompts = c.cached('prompts') ?? lists.prompts;
    lists.resources = c.cached('resources') ?? lists.resources;
    remembered.set(c, lists);
  };
  const flush = () => {
    timer = undefined;
    const connections = wb.registry.all();
    connections.forEach(remember);
    // What a message is made of, by identity: a state change (most registry events) changes none
    // of it, and building and comparing the text is a few MB for a 10,000-tool server.
    const inputs = connections.flatMap((c) => {
      const lists = remembered.get(c)!;
      return [c.definition, lists.tools, lists.prompts, lists.resources];
    });
    if (lastInputs && inputs.length === lastInputs.length && inputs.every((x, i) => x === lastInputs![i])) return;
    lastInputs = inputs;
    const params: ServerCatalogParams = { servers: connections.map((c) => catalogServer(c.definition, remembered.get(c)!)) };
    const text = JSON.stringify(params);
    if (text === lastSent) return;
    lastSent = text;
    send(params);
  };
  const schedule = () => {
    if (!disposed) timer ??= setTimeout(flush, COALESCE_MS);
  };

  store.push(
    // First: the connections' disposals below schedule, and nothing may be sent after this.
    {
      dispose: () => {
        disposed = true;
        clearTimeout(timer);
      },
    },
    wb.registry.forEachConnection((c) => {
      schedule();
      return [
        c.onDidChangeList(() => {
          remember(c);
          schedule();
        }),
        {
          dispose: () => {
            remembered.delete(c);
            schedule();
          },
        },
      ];
    }),
    wb.registry.onDidChange(schedule),
    wb.registry.onDidApply(schedule),
  );
  flush();
  return {
    dispose: () => store.dispose(),
    /** Sends it all again (a restarted server process). */
    resend: () => {
      lastSent = undefined;
      lastInputs = undefined;
      if (!disposed) flush();
    },
  };
}
