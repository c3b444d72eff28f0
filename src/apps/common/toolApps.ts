/**
 * What Run Tool needs of MCP Apps: the sandbox origin its page may frame, and one app view per
 * panel that shows the app of each run. The composition root (src/extension.ts) builds it
 * (`toolAppsOf` in src/apps/toolAppController.ts) and hands it to Run Tool, which so needs
 * none of the apps glue.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import type { AppFromWebview, AppToWebview } from './appsProtocol';

export interface ToolApps {
  /** The `frame-src` sources a webview that shows apps must allow. */
  frameSources(): Promise<string[]>;
  /** The app of one Run Tool panel: `post` reaches the panel's webview, `title` is the tool's title now. */
  appFor(post: (message: AppToWebview) => void, title: () => string): ToolApp;
}

/** A Run Tool panel's app: shown after each run, inline or popped out into its own tab. */
export interface ToolApp {
  /** Shows the app of a finished run (replacing the previous run's app). */
  show(serverId: string, tool: Tool, args: Record<string, unknown>, result: CallToolResult | undefined): Promise<void>;
  /** The Run Tool webview was (re-)created: show the app in it again if it lives there. */
  remount(): Promise<void>;
  /** A message about the app from the Run Tool webview. */
  receiveInline(message: AppFromWebview): void;
  dispose(): void;
}
