// The Console tab: one server's stderr lines and log messages (or every server's, "All
// servers", each line with its server), levelled, with a server picker, a minimum level, a
// stderr switch, words to find, and Export. The host sends the watched server's lines (all of
// them when the watch starts, then what is new); the page keeps at most as many as the host
// does. Every line is server text: set with textContent only.
import {
  filterConsole,
  filterWords,
  LOG_LEVELS,
  matchesConsole,
  MAX_CONSOLE_LINES,
  type ConsoleFilter,
  type ConsoleLine,
  type LogLevel,
} from '../../src/inspector/common/consoleLog';
import { ALL_SERVERS, type ConsoleFromWebview, type ConsoleToWebview } from '../../src/inspector/common/consoleProtocol';
import { formatClock } from '../../src/inspector/common/inspectorRows';
import * as l10n from '@vscode/l10n';
import { h } from './dom';

export interface ConsoleState {
  serverId?: string;
  filter: ConsoleFilter;
}

export interface ConsoleHost {
  post(message: ConsoleFromWebview): void;
  save(): void;
}

export class ConsoleView {
  readonly element: HTMLElement;
  private servers: { id: string; label: string }[] = [];
  private lines: ConsoleLine[] = [];
  private dropped = 0;
  private shown = false;
  private readonly serverSelect = h('select', { 'aria-label': l10n.t('Server') });
  private readonly levelSelect = h('select', { 'aria-label': l10n.t('Minimum log level') });
  private readonly stderrBox = h('input', { type: 'checkbox', id: 'console-stderr' });
  private readonly textInput = h('input', { type: 'search', placeholder: l10n.t('Find in the console'), 'aria-label': l10n.t('Console filter text') });
  private readonly count = h('span', { class: 'console-count', role: 'status' });
  private readonly log = h('div', { class: 'console-lines', role: 'log', 'aria-label': l10n.t('Console lines'), 'aria-live': 'off', tabindex: '0' });
  private readonly empty = h('p', { class: 'empty' });

  constructor(
    private readonly host: ConsoleHost,
    readonly state: ConsoleState,
  ) {
    this.levelSelect.append(h('option', { value: '' }, l10n.t('All levels')));
    for (const level of LOG_LEVELS) this.levelSelect.append(h('option', { value: level }, l10n.t('{0} and above', level)));
    this.levelSelect.value = state.filter.minLevel ?? '';
    this.stderrBox.checked = !state.filter.hideStderr;
    this.textInput.value = state.filter.text ?? '';
    const clear = h('button', { type: 'button', title: l10n.t('Clear the console lines shown') }, l10n.t('Clear'));
    const save = h('button', { type: 'button', title: l10n.t('Save the console lines shown to a file (secrets redacted)') }, l10n.t('Export…'));
    this.element = h(
      'div',
      { class: 'console' },
      h(
        'div',
        { class: 'toolbar', role: 'toolbar', 'aria-label': l10n.t('Console filters') },
        this.serverSelect,
        this.levelSelect,
        h('label', { class: 'check' }, this.stderrBox, 'stderr'),
        this.textInput,
        this.count,
        clear,
        save,
      ),
      this.log,
      this.empty,
    );
    save.addEventListener('click', () => {
      if (this.state.serverId) this.host.post({ type: 'consoleExport', serverId: this.state.serverId });
    });
    this.serverSelect.addEventListener('change', () => {
      this.state.serverId = this.serverSelect.value || undefined;
      this.host.save();
      this.lines = [];
      this.render();
      this.watch();
    });
    const refilter = () => {
      this.state.filter = {
        ...(this.levelSelect.value ? { minLevel: this.levelSelect.value as LogLevel } : {}),
        ...(this.stderrBox.checked ? {} : { hideStderr: true }),
        ...(this.textInput.value ? { text: this.textInput.value } : {}),
      };
      this.host.save();
      this.render();
    };
    this.levelSelect.addEventListener('change', refilter);
    this.stderrBox.addEventListener('change', refilter);
    this.textInput.addEventListener('input', refilter);
    clear.addEventListener('click', () => {
      if (this.state.serverId) this.host.post({ type: 'consoleClear', serverId: this.state.serverId });
    });
    this.render();
  }

  /** The Console tab became visible (feed the watched server) or hidden (stop). */
  setShown(shown: boolean): void {
    this.shown = shown;
    if (shown) this.watch();
    else this.host.post({ type: 'consoleWatch' });
  }

  private watch(): void {
    if (this.shown) this.host.post({ type: 'consoleWatch', ...(this.state.serverId ? { serverId: this.state.serverId } : {}) });
  }

  receive(message: ConsoleToWebview): void {
    if (message.type === 'consoleServers') {
      this.servers = message.servers;
      const had = this.state.serverId;
      // One server at a time by default (a server author follows their own); "All servers" is kept once chosen.
      if (!had || (had !== ALL_SERVERS && !this.servers.some((s) => s.id === had))) this.state.serverId = this.servers[0]?.id;
      this.fillServers();
      if (this.state.serverId !== had) {
        this.host.save();
        this.lines = [];
        this.render();
        this.watch();
      }
      return;
    }
    if (message.serverId !== this.state.serverId) return;
    this.dropped = message.dropped;
    if (message.reset) {
      this.lines = message.lines;
      this.render();
      return;
    }
    this.lines.push(...message.lines);
    const excess = this.lines.length - MAX_CONSOLE_LINES;
    if (excess > 0) {
      this.lines.splice(0, excess);
      this.render();
      return;
    }
    // Appends only the new lines that match: no full redraw per batch.
    const atBottom = this.log.scrollTop + this.log.clientHeight >= this.log.scrollHeight - 4;
    const words = filterWords(this.state.filter);
    for (const line of message.lines) if (matchesConsole(line, this.state.filter, words)) this.log.append(this.lineElement(line));
    this.updateCount();
    if (atBottom) this.log.scrollTop = this.log.scrollHeight;
  }

  private fillServers(): void {
    this.serverSelect.textContent = '';
    if (this.servers.length > 1 || this.state.serverId === ALL_SERVERS) this.serverSelect.append(h('option', { value: ALL_SERVERS }, l10n.t('All servers')));
    for (const s of this.servers) this.serverSelect.append(h('option', { value: s.id }, s.label));
    this.serverSelect.value = this.state.serverId ?? '';
    this.serverSelect.disabled = !this.servers.length;
  }

  private lineElement(line: ConsoleLine): HTMLElement {
    return h(
      'div',
      { class: 'console-line', 'data-level': line.level },
      h('span', { class: 'time' }, formatClock(line.at)),
      ...(line.server !== undefined ? [h('span', { class: 'server' }, line.server)] : []),
      h('span', { class: `level ${line.level}` }, line.level),
      h('span', { class: 'text' }, line.text),
    );
  }

  private updateCount(): void {
    const shown = this.log.childElementCount;
    const count = shown === this.lines.length ? l10n.t('{0} lines', shown) : l10n.t('{0} of {1} lines', shown, this.lines.length);
    this.count.textContent = this.dropped ? l10n.t('{0} ({1} older dropped)', count, this.dropped) : count;
    this.empty.textContent = !this.servers.length
      ? l10n.t('No servers yet.')
      : !this.lines.length
        ? this.state.serverId === ALL_SERVERS
          ? l10n.t("Nothing yet: the servers' stderr and log messages appear here as they arrive.")
          : l10n.t("Nothing yet: this server's stderr and log messages appear here as they arrive.")
        : !shown
          ? l10n.t('No lines match the filters.')
          : '';
  }

  private render(): void {
    this.log.textContent = '';
    const label = this.state.serverId === ALL_SERVERS ? l10n.t('All servers') : this.servers.find((s) => s.id === this.state.serverId)?.label;
    this.log.setAttribute('aria-label', label ? l10n.t('Console lines of {0}', label) : l10n.t('Console lines'));
    for (const line of filterConsole(this.lines, this.state.filter)) this.log.append(this.lineElement(line));
    this.updateCount();
    this.log.scrollTop = this.log.scrollHeight;
  }
}
