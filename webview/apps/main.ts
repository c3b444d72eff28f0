// The webview of an app popped out into its own editor tab (fullscreen display mode): only the
// app area (appFrame.ts), filling the tab.
import '../shared/l10nSetup';
import './style.css';
import type { AppFromWebview, AppToWebview } from '../../src/apps/common/appsProtocol';
import { AppArea, onHostMessage } from './appFrame';
import { connectHost, typedMessage } from '../shared/hostChannel';

const host = connectHost<AppFromWebview>();
const area = new AppArea((message) => host.post(message), 'fullscreen');
document.getElementById('app')!.replaceChildren(area.element);
// Only the extension's messages, never the app frame's (see onHostMessage).
host.start({ parse: typedMessage<AppToWebview>, receive: (message) => area.handle(message), listen: (handle) => onHostMessage(area, handle) });
