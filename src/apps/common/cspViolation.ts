/**
 * What an app's policy blocked, made visible. A browser reports a blocked load, worker or eval
 * only inside the document it happened in (a `securitypolicyviolation` event), and the app's
 * document is a sandboxed frame nobody else can see into. So the sandbox server puts a small
 * listener first into the app's document (withViolationListener); it posts each violation as a JSON-RPC
 * notification (CSP_VIOLATION_METHOD) that the proxy relays like any app message. The webview
 * takes it out of the app protocol (the AppBridge never sees it), shows one line beside the app
 * and tells the host, which writes it to the server's log.
 *
 * The app's own scripts could post the same notification: it is only a report, so it is checked
 * for shape, cut to size and counted once per directive + blocked URI, at most MAX_REPORTS per app.
 */

import * as l10n from '@vscode/l10n';

export const CSP_VIOLATION_METHOD = 'x-mcpwb/csp-violation';

export interface CspViolation {
  /** The directive that blocked it, e.g. `connect-src`, `worker-src`, `script-src`. */
  directive: string;
  /** What was blocked: a URL, or a keyword the browser uses (`eval`, `inline`, `blob`, `data`). */
  blockedUri: string;
  /** The start of the blocked inline code or eval'd string, when the browser gives one (`sample`, at most 40 characters in Chromium). */
  sample?: string;
}

const SAMPLE_MAX = 80;

/** Distinct violations reported per app; later ones are counted, not shown or logged. */
export const MAX_REPORTS = 20;
const DIRECTIVE = /^[a-z-]{1,40}$/;

/** The violation in a notification's params, or undefined if they are not one. */
export function parseCspViolation(params: unknown): CspViolation | undefined {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return undefined;
  const { directive, blockedUri, sample } = params as Record<string, unknown>;
  if (typeof directive !== 'string' || typeof blockedUri !== 'string') return undefined;
  const name = directive.trim().toLowerCase();
  if (!DIRECTIVE.test(name)) return undefined;
  const uri = blockedUri.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 300) || '(inline)';
  // A sample is the app's own text: one line, cut short, so it cannot forge log lines or fill the view.
  const text =
    typeof sample === 'string'
      ? sample
          .replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ')
          .trim()
          .slice(0, SAMPLE_MAX)
      : '';
  return text ? { directive: name, blockedUri: uri, sample: text } : { directive: name, blockedUri: uri };
}

/** One line for the user and the log: what the app tried and why it did not happen. */
export function describeCspViolation(v: CspViolation): string {
  const line = (() => {
    switch (v.blockedUri) {
      case 'eval':
        return l10n.t('the app tried to evaluate code ({0}), which its policy does not allow', v.directive);
      case 'inline':
      case '(inline)':
        return l10n.t('the app tried to run inline code ({0}), which its policy does not allow', v.directive);
      default:
        return l10n.t('the app tried to load {0} ({1}), which its declared domains do not allow', v.blockedUri, v.directive);
    }
  })();
  return v.sample ? `${line} (${JSON.stringify(v.sample)})` : line;
}

/** Dedupes and caps the reports of one app. */
export class CspViolationLog {
  private readonly seen = new Set<string>();
  private dropped = 0;

  /** True the first time this directive + URI is reported (and while under the cap). */
  add(v: CspViolation): boolean {
    const key = `${v.directive} ${v.blockedUri}`;
    if (this.seen.has(key)) return false;
    if (this.seen.size >= MAX_REPORTS) {
      this.dropped++;
      return false;
    }
    this.seen.add(key);
    return true;
  }

  get count(): number {
    return this.seen.size + this.dropped;
  }
}

/** The listener put first into the app's document. It dedupes itself too, so a loop that keeps failing posts once. */
export const VIOLATION_LISTENER = `<script>(()=>{const s=new Set();document.addEventListener('securitypolicyviolation',(e)=>{const k=e.effectiveDirective+' '+e.blockedURI;if(s.has(k)||s.size>=${MAX_REPORTS})return;s.add(k);try{window.parent.postMessage({jsonrpc:'2.0',method:'${CSP_VIOLATION_METHOD}',params:{directive:String(e.effectiveDirective||e.violatedDirective),blockedUri:String(e.blockedURI),sample:String(e.sample||'')}},'*')}catch{}})})()</script>`;

/**
 * The app's HTML with VIOLATION_LISTENER before anything of the app's own: right after `<head>`
 * (or `<html>`, or the doctype), so the document keeps its doctype (no quirks mode) and the
 * listener is in place before the app's first script runs.
 */
export function withViolationListener(html: string): string {
  for (const tag of [/<head(?:\s[^>]*)?>/i, /<html(?:\s[^>]*)?>/i, /<!doctype[^>]*>/i]) {
    const match = tag.exec(html);
    if (match) return html.slice(0, match.index + match[0].length) + VIOLATION_LISTENER + html.slice(match.index + match[0].length);
  }
  return VIOLATION_LISTENER + html;
}
