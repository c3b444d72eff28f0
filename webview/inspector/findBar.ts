// Find in the detail's JSON (request and response): every match is wrapped in a <mark>, the
// current one scrolled to (folded JSON around it opened). Enter / F3 go to the next match,
// Shift+Enter / Shift+F3 to the previous one, Escape clears; Ctrl+F (Cmd+F) anywhere in the
// panel focuses the box. Matching is case-insensitive, within one text node (a key or a value).
import * as l10n from '@vscode/l10n';
import { h } from './dom';

export class FindBar {
  readonly element: HTMLElement;
  private readonly input: HTMLInputElement;
  private readonly count: HTMLElement;
  private readonly previous: HTMLButtonElement;
  private readonly next: HTMLButtonElement;
  private marks: HTMLElement[] = [];
  private at = -1;

  /** `scopes` gives the elements searched (the JSON views), asked each time the detail is drawn. */
  constructor(private readonly scopes: () => HTMLElement[]) {
    this.input = h('input', {
      type: 'search',
      class: 'find-input',
      placeholder: l10n.t('Find in request and response'),
      'aria-label': l10n.t('Find in request and response'),
    });
    this.count = h('span', { class: 'find-count', 'aria-live': 'polite' });
    this.previous = h(
      'button',
      { type: 'button', class: 'find-previous', title: l10n.t('Previous match (Shift+Enter)'), 'aria-label': l10n.t('Previous match') },
      '↑',
    );
    this.next = h('button', { type: 'button', class: 'find-next', title: l10n.t('Next match (Enter)'), 'aria-label': l10n.t('Next match') }, '↓');
    this.element = h('div', { class: 'find', role: 'search' }, this.input, this.count, this.previous, this.next);
    this.input.addEventListener('input', () => this.refresh());
    this.input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === 'F3') {
        event.preventDefault();
        this.move(event.shiftKey ? -1 : 1);
      } else if (event.key === 'Escape' && this.input.value) {
        event.preventDefault();
        this.input.value = '';
        this.refresh();
      }
    });
    this.previous.addEventListener('click', () => this.move(-1));
    this.next.addEventListener('click', () => this.move(1));
    window.addEventListener('keydown', (event) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'f') {
        event.preventDefault();
        this.input.focus();
        this.input.select();
      } else if (event.key === 'F3' && event.target !== this.input) {
        event.preventDefault();
        this.move(event.shiftKey ? -1 : 1);
      }
    });
    this.update();
  }

  /** Marks the matches again (the query changed, or the detail was redrawn). */
  refresh(): void {
    // Unwrap the previous marks first: a match may span what they split apart.
    const parents = new Set<Node>();
    for (const mark of this.marks) {
      if (!mark.parentNode) continue; // the detail was redrawn
      parents.add(mark.parentNode);
      mark.replaceWith(mark.textContent ?? '');
    }
    for (const parent of parents) parent.normalize();
    this.marks = [];
    this.at = -1;
    const query = this.input.value.toLowerCase();
    if (query) {
      for (const scope of this.scopes()) this.markIn(scope, query);
      if (this.marks.length) this.go(0);
    }
    this.update();
  }

  private markIn(scope: HTMLElement, query: string): void {
    const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
    const texts: Text[] = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) texts.push(n as Text);
    for (const text of texts) {
      const value = text.data;
      const lower = value.toLowerCase();
      let from = 0;
      let index = lower.indexOf(query, from);
      if (index < 0) continue;
      const parts: Node[] = [];
      while (index >= 0) {
        if (index > from) parts.push(document.createTextNode(value.slice(from, index)));
        const mark = h('mark', { class: 'find-match' }, value.slice(index, index + query.length));
        this.marks.push(mark);
        parts.push(mark);
        from = index + query.length;
        index = lower.indexOf(query, from);
      }
      if (from < value.length) parts.push(document.createTextNode(value.slice(from)));
      text.replaceWith(...parts);
    }
  }

  private move(delta: number): void {
    if (!this.marks.length) return;
    this.go((this.at + delta + this.marks.length) % this.marks.length);
    this.update();
  }

  private go(index: number): void {
    this.marks[this.at]?.classList.remove('current');
    this.at = index;
    const mark = this.marks[index];
    mark.classList.add('current');
    // A match inside folded JSON: unfold every level around it.
    for (let el = mark.parentElement; el; el = el.parentElement) if (el instanceof HTMLDetailsElement) el.open = true;
    mark.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }

  private update(): void {
    const n = this.marks.length;
    this.count.textContent = !this.input.value ? '' : n ? l10n.t('{0} of {1}', this.at + 1, n) : l10n.t('No results');
    this.previous.disabled = this.next.disabled = n === 0;
  }
}
