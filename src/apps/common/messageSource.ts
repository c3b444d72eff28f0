/**
 * Who posted a `message` event in a webview that shows MCP App frames (the Run Tool panel, an
 * app's own tab). Two kinds of windows post to such a page:
 *
 * - VS Code's webview host frame, relaying what the extension posted (`webview.postMessage`):
 *   it dispatches with `contentWindow.postMessage(message, window.origin)`, so the event's
 *   origin is the page's own origin.
 * - the app: its sandbox proxy frame (relaying the app), or the app's own frame posting to
 *   `window.parent.parent` directly. Their events have the sandbox server's origins
 *   (http://127.0.0.1 on ports of its own, never the page's), and any window can post anything.
 *
 * `event.source === window.parent` is not the test: VS Code's webview script replaces
 * `window.parent` with the page itself (1.139 does `window.parent = window`), so the host
 * frame is not reachable by name. The origin is what no app can fake; the source must in
 * addition not be one of the page's app frames.
 */

export interface MessageEventLike {
  readonly origin: string;
  readonly source: unknown;
}

/**
 * Whether `event` was posted by the webview host (the extension), so the page may act on it.
 * `ownOrigin` is the page's `window.origin`; `isAppWindow` says whether a window is one of the
 * app frames the page shows (their messages go through the frame channel only).
 */
export function isFromWebviewHost(event: MessageEventLike, ownOrigin: string, isAppWindow: (source: unknown) => boolean): boolean {
  if (!ownOrigin || ownOrigin === 'null' || event.origin !== ownOrigin) return false;
  return event.source !== null && event.source !== undefined && !isAppWindow(event.source);
}

interface WindowLike {
  readonly parent: unknown;
}

/**
 * Whether `source` is `frameWindow` or a window inside it (the app's frame inside the proxy
 * frame). Walks up through `parent`, which a cross-origin window still exposes; a chain that
 * does not end, or cannot be read, counts as inside (the cautious answer for the host channel).
 */
export function isWindowWithin(source: unknown, frameWindow: unknown): boolean {
  if (!frameWindow || !source) return false;
  try {
    let w = source as WindowLike;
    for (let depth = 0; depth < 16; depth++) {
      if (w === frameWindow) return true;
      const parent = w.parent as WindowLike | null | undefined;
      if (!parent || parent === w) return false;
      w = parent;
    }
    return true;
  } catch {
    return true;
  }
}
