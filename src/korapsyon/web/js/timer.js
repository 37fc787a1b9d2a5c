/**
 * The step's countdown: `{paused: false, deadline}` in server seconds, or
 * `{paused: true, remaining}`. The display ticks locally against the server's clock
 * (the link's skew-corrected `serverNow()`), so every screen in the room agrees.
 */

import { h } from './dom.js';
import { t } from './i18n.js';

export class Countdown {
  /** Shows the countdown in `el`, reading the server's clock from `link`. */
  constructor(el, link) {
    this.el = el;
    this.link = link;
    this.timer = null;
    setInterval(() => this.draw(), 250);
  }

  set(timer) {
    this.timer = timer;
    this.draw();
  }

  /** Seconds left (null: no timer). */
  remaining() {
    const timer = this.timer;
    if (!timer) return null;
    if (timer.paused) return timer.remaining;
    return Math.max(0, timer.deadline - this.link.serverNow());
  }

  draw() {
    const left = this.remaining();
    const el = this.el;
    el.hidden = left === null;
    if (left === null) return;
    const seconds = Math.ceil(left);
    const clock = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
    el.dataset.paused = String(Boolean(this.timer.paused));
    el.dataset.remaining = String(seconds);
    el.classList.toggle('urgent', !this.timer.paused && seconds <= 10);
    el.textContent = this.timer.paused ? `⏸ ${clock} · ${t('timer.paused')}` : `⏱ ${clock}`;
    el.setAttribute('aria-label', t('timer.label', { clock }));
  }
}

/**
 * The host's and the moderator's controls: the timer buttons (pause, resume, +30 s, end
 * the step) and, in the discussion, closing it (R-35: an `act` as `@host`).
 */
export function hostControls(room, view) {
  if (view.status === 'finished') return [];
  return h(
    'div',
    { class: 'host-controls' },
    timerControls(room),
    view.step === 'discussion'
      ? h('button', {
          type: 'button',
          testid: 'end-discussion',
          class: 'primary',
          text: `🔔 ${t('host.end_discussion')}`,
          onclick: () => room.attempt(room.link.act({ action: 'end_discussion', player: '@host' })),
        })
      : null,
  );
}

function timerControls(room) {
  const send = (op, seconds) => room.attempt(room.link.timer(op, seconds));
  const paused = Boolean(room.timer?.paused);
  const running = Boolean(room.timer) && !paused;
  return h(
    'div',
    { class: 'timer-controls', role: 'group', 'aria-label': t('timer.controls') },
    h('button', { type: 'button', testid: 'timer-pause', disabled: !running, onclick: () => send('pause') }, `⏸ ${t('timer.pause')}`),
    h('button', { type: 'button', testid: 'timer-resume', disabled: !paused, onclick: () => send('resume') }, `▶ ${t('timer.resume')}`),
    h('button', { type: 'button', testid: 'timer-extend', onclick: () => send('extend', 30) }, `+ ${t('timer.extend')}`),
    h('button', { type: 'button', testid: 'timer-end', class: 'danger', onclick: () => send('end') }, `⏭ ${t('timer.end')}`),
  );
}
