// The handle between the exchange list and the detail: dragged with the mouse, or focused and
// moved with Left/Right (Home/End: the narrowest and widest list), as a WAI-ARIA window splitter
// (role separator with its value). The list's share of the width is kept in the page's state.
import * as l10n from '@vscode/l10n';
import { h } from './dom';

const MIN = 20;
const MAX = 80;
const STEP = 5;

/** `value` as a whole percentage of the width the list may take. */
export const clampSplit = (value: number): number => Math.round(Math.min(MAX, Math.max(MIN, value)));

export class Splitter {
  readonly element: HTMLElement;
  /** The list's share in percent; undefined: the stylesheet's default, never moved. */
  percent: number | undefined;

  constructor(
    private readonly pane: HTMLElement,
    saved: number | undefined,
    private readonly changed: () => void,
  ) {
    this.element = h('div', {
      class: 'splitter',
      role: 'separator',
      tabindex: '0',
      'aria-orientation': 'vertical',
      'aria-label': l10n.t('Resize the exchange list and the detail'),
      'aria-valuemin': String(MIN),
      'aria-valuemax': String(MAX),
      title: l10n.t('Drag, or use the Left and Right arrow keys, to resize the list and the detail'),
    });
    if (typeof saved === 'number' && Number.isFinite(saved)) this.set(saved, false);
    else this.element.setAttribute('aria-valuenow', '55');
    this.element.addEventListener('pointerdown', (event) => {
      if (event.button !== 0) return;
      event.preventDefault();
      this.element.setPointerCapture(event.pointerId);
      this.element.classList.add('dragging');
    });
    this.element.addEventListener('pointermove', (event) => {
      if (!this.element.hasPointerCapture(event.pointerId)) return;
      const box = this.pane.parentElement!.getBoundingClientRect();
      if (box.width > 0) this.set(((event.clientX - box.left) / box.width) * 100, false);
    });
    const end = (event: PointerEvent) => {
      if (!this.element.hasPointerCapture(event.pointerId)) return;
      this.element.releasePointerCapture(event.pointerId);
      this.element.classList.remove('dragging');
      this.changed();
    };
    this.element.addEventListener('pointerup', end);
    this.element.addEventListener('pointercancel', end);
    this.element.addEventListener('keydown', (event) => {
      const now = this.percent ?? 55;
      const next =
        event.key === 'ArrowLeft' ? now - STEP : event.key === 'ArrowRight' ? now + STEP : event.key === 'Home' ? MIN : event.key === 'End' ? MAX : undefined;
      if (next === undefined) return;
      event.preventDefault();
      this.set(next, true);
    });
  }

  private set(value: number, save: boolean): void {
    this.percent = clampSplit(value);
    this.pane.style.flexBasis = `${this.percent}%`;
    this.element.setAttribute('aria-valuenow', String(this.percent));
    if (save) this.changed();
  }
}
