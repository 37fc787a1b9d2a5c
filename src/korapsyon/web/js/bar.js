/**
 * The status bar: a strip that sticks to the top of the screen on the phone, the grimoire
 * and the lobby, so that what is going on and what went wrong are never scrolled away -
 * what the page puts in it (the phone: the step and the timer; the grimoire: the Year, the
 * step and the timer), the connection, who the table is waiting for, a note about the
 * page's own seat, and the page-wide error line. On the board it sits in the top row (the board fits its screen).
 *
 * R-70: the bar is the same on every phone, whatever the role: the same elements, and
 * words drawn from public facts only; in the Hidden Phase every phone says the same
 * thing (the night's progress is secret).
 *
 * Also here: the screen kept awake during a game (`Awake`, the Screen Wake Lock API where
 * the browser has it).
 */

import { byTestId, h } from './dom.js';
import { t } from './i18n.js';

let errorTimer = null;

/** Build the bar for a page of `kind` and put it after (board: into) the page's header. */
export function buildBar(kind, header) {
  const bar = h(
    'section', // a landmark: a screen reader finds the state of play at once
    { testid: 'status-bar', class: `status-bar bar-${kind}`, 'aria-label': t('bar.label'), data: { wake: 'off' } },
    h(
      'div',
      { class: 'bar-row' },
      h('div', { class: 'bar-status' }),
      h('span', { testid: 'connection', class: 'connection', role: 'status', data: { state: 'closed' }, hidden: kind === 'lobby' }),
    ),
    h('p', { class: 'bar-line', hidden: true }, h('span', { class: 'bar-own' }), h('span', { testid: 'bar-waiting', class: 'bar-waiting' })),
    h('p', { testid: 'bar-note', class: 'bar-note', role: 'status', hidden: true }),
    h('p', { testid: 'error', class: 'error', role: 'alert', hidden: true }),
  );
  if (kind === 'board') header.querySelector('.top-tools').before(bar);
  else header.after(bar);
  return bar;
}

/**
 * What the page shows in the bar: `main` beside the connection (elements the page keeps
 * up to date itself) and `line` before the words on who is awaited.
 */
export function setBar({ main = [], line = [] }) {
  const bar = byTestId('status-bar');
  bar.setAttribute('aria-label', t('bar.label')); // (in the language chosen since)
  bar.querySelector('.bar-status').replaceChildren(...main);
  bar.querySelector('.bar-own').replaceChildren(...line);
  bar.classList.toggle('with-status', main.length > 0);
  showLine();
}

/** Who (or what) the table is waiting for now: a line of the bar ('' for none). */
export function setWaiting(text) {
  const el = byTestId('bar-waiting');
  if (!el || el.textContent === text) return;
  el.textContent = text;
  showLine();
}

/**
 * A note about this page's own seat that stays while it holds ('' for none): a bot plays
 * the seat meanwhile, and how to have it back. (The table is told too: it says nothing
 * about a role, R-70.)
 */
export function setNote(text) {
  const el = byTestId('bar-note');
  if (!el || el.textContent === text) return;
  el.textContent = text;
  el.hidden = !text;
}

function showLine() {
  const bar = byTestId('status-bar');
  const line = bar.querySelector('.bar-line');
  line.hidden = !byTestId('bar-waiting').textContent && !bar.querySelector('.bar-own').textContent;
}

/**
 * The connection as the bar shows it: `open` (this page's view is the server's, live),
 * `syncing` (connected, the new view not here yet, or checking that the connection still
 * lives) or `closed` (not connected: `first` says whether it ever was).
 */
export function setConnection(state, first = false) {
  const el = byTestId('connection');
  if (!el) return;
  el.dataset.state = state;
  el.dataset.first = String(first);
  const key = state === 'open' ? 'connection.open' : state === 'syncing' ? 'connection.syncing' : first ? 'connection.connecting' : 'connection.closed';
  const icon = { open: '●', syncing: '◐', closed: '○' }[state];
  el.replaceChildren(h('span', { 'aria-hidden': 'true', text: icon }), ' ', h('span', { class: 'conn-word', text: t(key) }));
  byTestId('status-bar').dataset.connection = state;
}

/** Show a message in the bar's `error` line (cleared after a while). */
export function showError(message) {
  const el = byTestId('error');
  if (!el) return;
  el.textContent = message;
  el.hidden = false;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => {
    el.hidden = true;
  }, 8000);
}

/** Hide the error line (what it said is out of date: a later request went through). */
export function clearError() {
  const el = byTestId('error');
  if (el) el.hidden = true;
}

/** A seat's name as the bar says it (the host acts as `@host`, R-35). */
export function actorName(name) {
  if (name === '@host') return t('chat.host');
  if (name === '@moderator') return t('chat.moderator');
  return name;
}

/** "Ana", "Ana and Ben", "Ana, Ben and Carla", "Ana, Ben and 3 others" (each isolated). */
export function namesText(names) {
  const shown = names.map(actorName);
  if (shown.length === 1) return t('bar.names_1', { a: shown[0] });
  if (shown.length === 2) return t('bar.names_2', { a: shown[0], b: shown[1] });
  if (shown.length === 3) return t('bar.names_3', { a: shown[0], b: shown[1], c: shown[2] });
  return t('bar.names_more', { a: shown[0], b: shown[1], n: shown.length - 2 });
}

/**
 * Who the table is waiting for in `view`, in words, from its public facts only (the same
 * line on every phone): outside the Hidden Phase by name while nobody asked has answered
 * yet and they are few (the President, a small committee), else by count; in the Hidden
 * Phase the same words for everyone (R-70: the night's progress is secret). A player still
 * to answer is told it is their turn (the server sends them no running count). `waiting`: the
 * moderator's exact list (`secrets.waiting_for`), the moderator may know it.
 */
export function waitingText(view, waiting = null) {
  if (!view || view.status === 'finished') return '';
  const step = view.step;
  if (step === 'discussion') return `💬 ${t('bar.discussion')}`;
  if (waiting) return waiting.length ? `⏳ ${t('bar.waiting_for', { names: namesText(waiting) })}` : `✔ ${t('bar.all_in')}`;
  if (step === 'hidden') return `🌙 ${t('bar.night')}`;
  const voters = view.ballot?.voters;
  if (!voters?.length) return '';
  const you = view.you;
  if (you?.to_act && !you.submitted) {
    // (a player still deciding is not sent the count as it moves: say only who is asked)
    return `✏ ${voters.length > 1 ? t('bar.your_turn_many', { of: voters.length }) : t('bar.your_turn')}`;
  }
  const cast = view.ballot.cast ?? 0;
  const left = voters.length - cast;
  if (left <= 0) return `✔ ${t('bar.all_in')}`;
  if (step === 'pick_project' || step === 'pick_committee') return `⏳ ${t(`bar.${step}`, { name: actorName(voters[0]) })}`;
  if (step === 'committee_vote') return `🗳 ${t('bar.committee', { cast, of: voters.length })}`;
  if (cast === 0 && voters.length <= 3) return `⏳ ${t('bar.waiting_for', { names: namesText(voters) })}`;
  return `⏳ ${t('bar.count', { left, of: voters.length })}`;
}

/**
 * The screen kept awake while `want(true)` (a game under way), where the browser allows
 * it (the Screen Wake Lock API: secure pages only). The browser lets go of the lock when the
 * page is hidden; it is taken again when the page is visible. The bar's `data-wake` says
 * `on`, `off` or `unsupported` (docs/CLIENT.md).
 */
export class Awake {
  constructor() {
    this.wanted = false;
    this.lock = null; // the WakeLockSentinel, or 'asking'
    document.addEventListener('visibilitychange', () => this.sync());
  }

  want(on) {
    if (on === this.wanted) return;
    this.wanted = on;
    this.sync();
  }

  async sync() {
    if (!('wakeLock' in navigator)) {
      this.show('unsupported');
      return;
    }
    if (this.wanted && !this.lock && document.visibilityState === 'visible') {
      this.lock = 'asking';
      let lock = null;
      try {
        lock = await navigator.wakeLock.request('screen');
      } catch {
        // refused (battery saver, a hidden page): the game goes on with the screen's own timer
      }
      this.lock = lock;
      if (lock) {
        lock.addEventListener('release', () => {
          if (this.lock !== lock) return;
          this.lock = null;
          this.show('off');
        });
      }
      if (lock && !this.wanted) this.sync(); // the game ended meanwhile
    } else if (!this.wanted && this.lock && this.lock !== 'asking') {
      const lock = this.lock;
      this.lock = null;
      lock.release().catch(() => {});
    }
    this.show(this.lock && this.lock !== 'asking' ? 'on' : 'off');
  }

  show(state) {
    const bar = byTestId('status-bar');
    if (bar) bar.dataset.wake = state;
  }
}
