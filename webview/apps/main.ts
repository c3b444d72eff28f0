// The webview of an app popped out into its own editor tab (fullscreen display mode): only the
// app area (appFrame.ts), filling the tab.
import '../shared/l10nSetup';
import './style.css';
import type { AppFromWebview, AppToWebview } from '../../src/apps/common/appsProtocol';
import { AppArea, onHostMessage } from './appFrame';

interface VsCodeApi {
  postMessage(message: AppFromWebview | { type: 'ready' }): void;
}
declare function acquireVsCodeApi(): VsCodeApi;
const vscode = acquireVsCodeApi();

const area = new AppArea((message) => vscode.postMessage(message), 'fullscreen');
document.getElementById('app')!.replaceChildren(area.element);
// Only the extension's messages, never the app frame's (see onHostMessage).
onHostMessage(area, (message) => area.handle(message as AppToWebview));
vscode.postMessage({ type: 'ready' });
