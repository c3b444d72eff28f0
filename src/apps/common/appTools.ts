/**
 * What a tool's `_meta.ui` says (MCP Apps, SEP-1865): the `ui://` resource that renders it and
 * who may call it (`visibility`: "model" = the model's tool list, "app" = the server's own
 * apps). Read defensively: servers send any JSON there.
 */

/** The MCP Apps mimeType and extension id: protocol facts, declared by the protocol core. */
export { APP_MIME_TYPE, APPS_EXTENSION_ID } from '../../mcp/protocolFacts';

export type ToolVisibility = 'model' | 'app';

interface ToolLike {
  _meta?: Record<string, unknown> | undefined;
}

function uiMeta(tool: ToolLike): Record<string, unknown> | undefined {
  const ui = tool._meta?.ui;
  return typeof ui === 'object' && ui !== null && !Array.isArray(ui) ? (ui as Record<string, unknown>) : undefined;
}

/**
 * The `ui://` URI of the tool's app, if it declares one (`_meta.ui.resourceUri`, or the
 * deprecated flat `_meta["ui/resourceUri"]` older servers send). Anything but a `ui://` URI
 * is ignored: the host only renders resources of that scheme.
 */
export function toolAppUri(tool: ToolLike): string | undefined {
  const uri = uiMeta(tool)?.resourceUri ?? tool._meta?.['ui/resourceUri'];
  return typeof uri === 'string' && uri.startsWith('ui://') && uri.length <= 2048 ? uri : undefined;
}

/**
 * Who may call the tool. Absent or malformed visibility means both (the spec's default);
 * unknown entries are dropped; an explicit empty list means neither.
 */
export function toolVisibility(tool: ToolLike): ToolVisibility[] {
  const raw = uiMeta(tool)?.visibility;
  if (!Array.isArray(raw)) return ['model', 'app'];
  return raw.filter((v): v is ToolVisibility => v === 'model' || v === 'app');
}

/** The model (chat's tool list) may see and call it. */
export function isModelVisible(tool: ToolLike): boolean {
  return toolVisibility(tool).includes('model');
}

/** An app of the same server may call it (`tools/call` from the app frame). */
export function isAppVisible(tool: ToolLike): boolean {
  return toolVisibility(tool).includes('app');
}

/** Only apps may call it: hidden from chat, shown (marked) in the tree. */
export function isAppOnly(tool: ToolLike): boolean {
  const visibility = toolVisibility(tool);
  return visibility.includes('app') && !visibility.includes('model');
}
