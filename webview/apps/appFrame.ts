// The area that shows an MCP App in a webview (Run Tool's result area, or the app's own tab).
// It holds the sandbox proxy frame (sandbox="allow-scripts allow-same-origin": the local sandbox
// server's origin, never this page's; a sandboxed frame's flags bind its descendants, so without
// allow-same-origin here the app below could have no storage either; served by the
// local sandbox server with the app's CSP) and relays JSON-RPC between that frame and the
// extension host, checking every message (parseAppMessage) and accepting only messages whose
// source is that frame's window. It also reports the theme, the spec's CSS variables mapped
// from VS Code's, and the container size whenever they change.
//
// The page has two channels, kept apart: the host's messages (onHostMessage: only what VS
// Code's webview host posted, never what an app frame posted, whatever its `type`) and the
// frame's (fromFrame: only JSON-RPC from the proxy frame, relayed as `appMessage`). An app can
// post anything to this window; it must not be able to speak for the host.
import * as l10n from '@vscode/l10n';
import { parseAppMessage } from '../../src/apps/common/appMessages';
import { isFromWebviewHost, isWindowWithin } from '../../src/apps/common/messageSource';
import type {
  AppApprovalRequest,
  AppDisplayMode,
  AppFrameSpec,
  AppFromWebview,
  AppNotice,
  AppNoticeAction,
  AppToWebview,
} from '../../src/apps/common/appsProtocol';
import { hostStyleVariables, themeFromBodyClass } from '../../src/apps/common/hostStyles';
import { PROXY_SANDBOX } from '../../src/apps/common/sandboxProxyPage';
import { CSP_VIOLATION_METHOD, CspViolationLog, describeCspViolation, parseCspViolation } from '../../src/apps/common/cspViolation';

type Post = (message: AppFromWebview) => void;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'class') node.className = value;
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

const INLINE_HEIGHT = 360;
const MAX_INLINE_HEIGHT = 2000;
/** How long the approval buttons ignore clicks after the bar appears (long enough to notice it). */
const APPROVAL_ARM_MS = 700;

/**
 * Calls `handle` with every message the extension posted to this webview, and with nothing an
 * app frame posted (see messageSource.ts). The page's only way to hear the host.
 */
export function onHostMessage(area: AppArea, handle: (message: unknown) => void): void {
  window.addEventListener('message', (event) => {
    if (isFromWebviewHost(event, window.origin, (source) => area.ownsWindow(source))) handle(event.data);
  });
}

export class AppArea {
  readonly element: HTMLElement;
  private frame: HTMLIFrameElement | undefined;
  private app: AppFrameSpec | undefined;
  private problems = 0;
  private violations = new CspViolationLog();
  private envTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly post: Post,
    private readonly mode: AppDisplayMode,
  ) {
    this.element = el('section', { id: 'app-area', class: `app-area ${mode}`, 'aria-label': l10n.t('MCP App'), hidden: '' });
    window.addEventListener('message', (event) => this.fromFrame(event));
    // VS Code changes the body class and the --vscode-* variables on <html> when the theme changes.
    const observer = new MutationObserver(() => this.environmentChanged());
    observer.observe(document.body, { attributes: true, attributeFilter: ['class'] });
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['style', 'class'] });
    new ResizeObserver(() => this.environmentChanged()).observe(this.element);
  }

  /** Whether `source` is the app's proxy frame or a frame inside it (the app). */
  ownsWindow(source: unknown): boolean {
    return isWindowWithin(source, this.frame?.contentWindow);
  }

  /** Handles the host's app messages; false for messages that are not about apps. */
  handle(message: AppToWebview | { type: string }): boolean {
    const m = message as AppToWebview;
    switch (m.type) {
      case 'appShow':
        this.show(m.app);
        return true;
      case 'appPlaceholder':
        if (m.appId && m.appId !== this.app?.appId) return true;
        this.placeholder(m.placeholder.kind, m.placeholder.text);
        return true;
      case 'appMessage':
        if (m.appId === this.app?.appId) this.frame?.contentWindow?.postMessage(m.message, '*');
        return true;
      case 'appApproval':
        if (m.appId === this.app?.appId) this.approval(m.appId, m.approval);
        return true;
      case 'appServerState':
        if (m.appId === this.app?.appId) this.serverState(m.appId, m.text, m.canStart === true);
        return true;
      case 'appNotice':
        if (m.appId === this.app?.appId) this.notice(m.appId, m.notice);
        return true;
      default:
        return false;
    }
  }

  private header(app: AppFrameSpec | undefined, text?: string): HTMLElement {
    const header = el('div', { class: 'app-header' }, el('span', { class: 'app-title' }, app ? l10n.t('App: {0}', app.title) : l10n.t('App')));
    if (app) {
      header.append(
        el(
          'span',
          { class: 'app-meta', title: app.resourceUri },
          app.connectDomains.length ? l10n.t('may connect to {0}', app.connectDomains.join(', ')) : l10n.t('no network access'),
        ),
      );
      const other: AppDisplayMode = this.mode === 'inline' ? 'fullscreen' : 'inline';
      const move = el(
        'button',
        { type: 'button', class: 'secondary small', id: this.mode === 'inline' ? 'app-pop-out' : 'app-pop-in' },
        this.mode === 'inline' ? l10n.t('Open in Editor Tab') : l10n.t('Back to Run Tool'),
      );
      move.addEventListener('click', () => this.post({ type: 'appDisplayMode', appId: app.appId, mode: other }));
      header.append(move);
    }
    if (text) header.append(el('span', { class: 'app-meta' }, text));
    return header;
  }

  private show(app: AppFrameSpec): void {
    this.app = app;
    this.problems = 0;
    this.violations = new CspViolationLog();
    this.element.hidden = false;
    this.element.classList.toggle('bordered', app.prefersBorder);
    // The environment goes first, so the host knows it when the app initializes.
    this.sendEnvironment();
    const frame = el('iframe', {
      class: 'app-frame',
      src: app.proxyUrl,
      sandbox: PROXY_SANDBOX,
      title: l10n.t('MCP App {0} ({1})', app.title, app.serverLabel),
      referrerpolicy: 'no-referrer',
      ...(app.allow ? { allow: app.allow } : {}),
    });
    if (this.mode === 'inline') frame.style.height = `${INLINE_HEIGHT}px`;
    this.frame = frame;
    this.element.replaceChildren(this.header(app), frame);
  }

  /**
   * One line beside the app while its server is not running, with Start (the host starts this
   * app's own server). Outside the frame, like the approval bar: the app cannot press it.
   */
  private serverState(appId: string, text: string | undefined, canStart: boolean): void {
    this.element.querySelector('.app-server-state')?.remove();
    if (!text || !this.frame) return;
    const line = el('div', { class: 'app-server-state', role: 'status' }, el('span', {}, text));
    if (canStart) {
      const start = el('button', { type: 'button', class: 'secondary small', id: 'app-start-server' }, l10n.t('Start'));
      start.addEventListener('click', () => {
        start.disabled = true;
        this.post({ type: 'appStartServer', appId });
      });
      line.append(' ', start);
    }
    this.element.insertBefore(line, this.frame);
  }

  /**
   * One line beside the app about its chat request (where its message went, or that this VS
   * Code has no chat). The text quotes the app: set as text, never as markup.
   */
  private notice(appId: string, notice: AppNotice): void {
    if (!this.frame) return;
    this.element.querySelector('.app-notice')?.remove();
    const line = el('div', { class: 'app-notice', role: 'status' }, el('span', { class: 'app-notice-text' }, notice.text));
    const labels: Record<AppNoticeAction, string> = {
      openChat: l10n.t('Ask @{0} in Chat', notice.participant ?? 'mcp'),
      copy: l10n.t('Copy Message'),
    };
    for (const action of notice.actions ?? []) {
      const b = el('button', { type: 'button', class: action === 'openChat' ? 'primary small' : 'secondary small', 'data-action': action }, labels[action]);
      b.addEventListener('click', () => this.post({ type: 'appNoticeAction', appId, noticeId: notice.noticeId, action }));
      line.append(' ', b);
    }
    this.element.insertBefore(line, this.frame);
  }

  /** The question whether the app may run a tool: outside the app's frame, so only the user can answer it. */
  private approval(appId: string, request: AppApprovalRequest | undefined): void {
    this.element.querySelector('.app-approval')?.remove();
    if (!request || !this.frame) return;
    const answer = (value: 'once' | 'session' | 'deny') => () => {
      bar.remove();
      this.post({ type: 'appApprovalAnswer', appId, approvalId: request.approvalId, answer: value });
    };
    const button = (label: string, value: 'once' | 'session' | 'deny', cls: string) => {
      const b = el('button', { type: 'button', class: cls }, label);
      b.addEventListener('click', answer(value));
      return b;
    };
    // An app that keeps asking for the same tool (one polling a tool that is not read-only) gets
    // the session-wide answer first, with a line saying how often it asked.
    const repeated = request.asked > 1;
    const once = button(l10n.t('Run Tool'), 'once', repeated ? 'secondary small' : 'primary small');
    const session = button(l10n.t('Allow for This App Session'), 'session', repeated ? 'primary small' : 'secondary small');
    session.id = 'app-approval-session';
    session.title = l10n.t('Run "{0}" without asking again until this app is closed (a new run of the tool asks again).', request.toolTitle);
    const bar = el(
      'div',
      { class: `app-approval${repeated ? ' repeated' : ''}`, role: 'alertdialog', 'aria-label': request.text, tabindex: '-1' },
      el('div', { class: 'app-approval-text' }, request.text),
      el('div', { class: 'app-meta' }, request.detail),
      ...(repeated ? [el('div', { class: 'app-approval-repeat' }, l10n.t('The app asked for this tool {0} times in this app session.', request.asked))] : []),
      el('div', { class: 'app-approval-buttons' }, ...(repeated ? [session, once] : [once, session]), button(l10n.t('Don’t Run'), 'deny', 'secondary small')),
    );
    this.element.insertBefore(bar, this.frame);
    // The app chooses when this bar appears, so it can time it under a key or a click the user
    // meant for the app. The bar itself takes the focus (an Enter or a Space now answers
    // nothing), and its buttons take a click only after a moment, as browsers do for prompts.
    const buttons = [...bar.querySelectorAll('button')];
    buttons.forEach((b) => (b.disabled = true));
    setTimeout(() => buttons.forEach((b) => (b.disabled = false)), APPROVAL_ARM_MS);
    bar.focus();
  }

  private placeholder(kind: string, text: string): void {
    this.frame = undefined;
    if (kind !== 'loading') this.app = kind === 'poppedOut' ? this.app : undefined;
    this.element.hidden = false;
    const body = el('p', { class: `app-placeholder ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
    if (kind === 'poppedOut' && this.app) {
      const app = this.app;
      const back = el('button', { type: 'button', class: 'secondary small', id: 'app-pop-in' }, l10n.t('Back to Run Tool'));
      back.addEventListener('click', () => this.post({ type: 'appDisplayMode', appId: app.appId, mode: 'inline' }));
      body.append(' ', back);
    }
    this.element.replaceChildren(this.header(undefined), body);
  }

  private fromFrame(event: MessageEvent): void {
    const frame = this.frame;
    const app = this.app;
    if (!frame || !app || event.source !== frame.contentWindow) return;
    const parsed = parseAppMessage(event.data);
    if (!('message' in parsed)) {
      if (++this.problems <= 5) this.post({ type: 'appProblem', appId: app.appId, message: `dropped a message from the app frame: ${parsed.reason}` });
      return;
    }
    const message = parsed.message;
    if ('method' in message && message.method === CSP_VIOLATION_METHOD) {
      // A report from the frame, not part of the app protocol: shown here, logged by the host.
      const violation = parseCspViolation(message.params);
      if (violation && this.violations.add(violation)) {
        this.showViolation(describeCspViolation(violation));
        this.post({ type: 'appCspViolation', appId: app.appId, violation });
      }
      return;
    }
    if (this.mode === 'inline' && 'method' in message && message.method === 'ui/notifications/size-changed') {
      const height = message.params?.height;
      if (typeof height === 'number' && Number.isFinite(height) && height > 0) frame.style.height = `${Math.min(Math.ceil(height), MAX_INLINE_HEIGHT)}px`;
    }
    this.post({ type: 'appMessage', appId: app.appId, message });
  }

  /** One line between the header and the app: the latest thing its policy blocked, and how many so far. */
  private showViolation(text: string): void {
    let line = this.element.querySelector<HTMLElement>('.app-policy');
    if (!line) {
      line = el('div', { class: 'app-policy', role: 'status' });
      this.element.insertBefore(line, this.frame ?? null);
    }
    const count = this.violations.count;
    line.textContent = count > 1 ? l10n.t('Blocked ({0}): {1}', count, text) : l10n.t('Blocked: {0}', text);
    line.title = l10n.t("The app's policy allows only the domains its server declared (_meta.ui.csp). The server's log lists every blocked request.");
  }

  private environmentChanged(): void {
    clearTimeout(this.envTimer);
    this.envTimer = setTimeout(() => this.sendEnvironment(), 50);
  }

  private sendEnvironment(): void {
    const app = this.app;
    if (!app || this.element.hidden) return;
    const style = getComputedStyle(document.documentElement);
    const width = Math.round(this.element.clientWidth || document.documentElement.clientWidth);
    this.post({
      type: 'appEnvironment',
      appId: app.appId,
      environment: {
        theme: themeFromBodyClass(document.body.classList),
        styles: hostStyleVariables((name) => style.getPropertyValue(name)),
        width,
        ...(this.mode === 'fullscreen' ? { height: Math.round(this.frame?.clientHeight || window.innerHeight) } : {}),
      },
    });
  }
}
