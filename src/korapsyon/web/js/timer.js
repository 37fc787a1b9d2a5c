/**
 * The step's countdown: `{paused: false, deadline}` in server seconds, or
 * `{paused: true, remaining}`. The display ticks locally against the server's clock
 * (the link's skew-corrected `serverNow()`), so every screen in the room agrees.
 */

import { h } from './dom.js';
import { stepTitle, t } from './i18n.js';
import { standInControls } from './standin.js';
import { BALLOTS } from './words.js';

export class Countdown {
  /** Shows the countdown in `el` (an element, or several that show the same clock),
   * reading the server's clock from `link`. */
  constructor(el, link) {
    this.els = [el].flat();
    this.link = link;
    this.timer = null;
    this.ticking = setInterval(() => this.draw(), 250);
  }

  /** No more ticks (a countdown whose element is gone). */
  stop() {
    clearInterval(this.ticking);
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
    for (const el of this.els) {
      el.hidden = left === null;
      if (left === null) continue;
      const seconds = Math.ceil(left);
      const clock = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
      el.dataset.paused = String(Boolean(this.timer.paused));
      el.dataset.remaining = String(seconds);
      el.classList.toggle('urgent', !this.timer.paused && seconds <= 10);
      el.textContent = this.timer.paused ? `⏸ ${clock} · ${t('timer.paused')}` : `⏱ ${clock}`;
      el.setAttribute('aria-label', t('timer.label', { clock }));
    }
  }
}

/**
 * The host's and the moderator's controls: closing the discussion (R-35: an `act` as
 * `@host`) and the timer buttons (pause, resume, +30 s, end the step now).
 *
 * Nothing moves under a finger into something that cannot be undone: the discussion's
 * button keeps its place (disabled) outside the discussion, on its own row away from the
 * timer's, and ending a step early asks once, in a sheet that says what it will do (how
 * many have decided; what the others get), with "keep going" first. The server tells the
 * table that the step was ended early, and by whom.
 */
export function hostControls(room, view) {
  if (view.status === 'finished') return [];
  const discussion = view.step === 'discussion';
  return h(
    'div',
    { class: 'host-controls' },
    h(
      'div',
      { class: 'host-row' },
      h('button', {
        type: 'button',
        testid: 'end-discussion',
        class: discussion ? 'primary big' : 'big',
        disabled: !discussion || room.endingDiscussion === view.year,
        text: `🔔 ${t('host.end_discussion')}`,
        // (disabled at the tap, and in any redraw meanwhile: a double tap sends one act; a
        // refusal gives it back, to the button drawn now, which may not be this one)
        onclick: async (event) => {
          const button = event.currentTarget;
          button.disabled = true;
          room.endingDiscussion = view.year;
          if (!(await room.attempt(room.link.act({ action: 'end_discussion', player: '@host' })))) {
            room.endingDiscussion = null;
            button.disabled = false;
            room.render('refused');
          }
        },
      }),
    ),
    timerControls(room, view),
    standInControls(room, view),
  );
}

function timerControls(room, view) {
  const send = (op, seconds) => room.attempt(room.link.timer(op, seconds));
  const paused = Boolean(room.timer?.paused);
  const running = Boolean(room.timer) && !paused;
  return h(
    'div',
    { class: 'timer-controls', role: 'group', 'aria-label': t('timer.controls') },
    h('button', { type: 'button', testid: 'timer-pause', disabled: !running, onclick: () => send('pause') }, `⏸ ${t('timer.pause')}`),
    h('button', { type: 'button', testid: 'timer-resume', disabled: !paused, onclick: () => send('resume') }, `▶ ${t('timer.resume')}`),
    h('button', { type: 'button', testid: 'timer-extend', onclick: () => send('extend', 30) }, `+ ${t('timer.extend')}`),
    h('button', { type: 'button', testid: 'timer-end', class: 'danger', onclick: () => confirmEnd(room, view) }, `⏭ ${t('timer.end')}`),
  );
}

/** What ending `view`'s step now does: in the night no count (R-70); in the discussion
 * (where only the host is asked) that it closes and the votes begin, not whether a
 * testimony makes the first one the Witness vote; in a vote how many have voted and what
 * the others count as (R-72: Oppose in the committee's vote, else not voting). */
function endDetail(view) {
  const ballot = view.ballot;
  const step = view.step;
  if (step === 'hidden') return t('timer.end_night');
  if (step === 'discussion') return t('timer.end_discussion');
  const counted = ballot?.cast !== undefined && ballot.voters?.length;
  if (!counted || !BALLOTS.has(step)) return t('timer.end_other');
  const key = step === 'committee_vote' ? 'timer.end_committee' : 'timer.end_vote';
  return t(key, { cast: ballot.cast, of: ballot.voters.length });
}

/** Ask once before a step is ended early: what it does, then "keep going" or "end it".
 * (`view` is the one the controls were drawn for; the sheet reads the latest, whose count
 * of votes is current.) */
function confirmEnd(room, drawn) {
  if (document.querySelector('[data-testid="confirm-end"]')) return; // (a double tap: one sheet)
  const view = room.view ?? drawn;
  const step = view.step;
  const asked = `${view.year}:${step}`; // the step the sheet is about, and no other
  const detail = endDetail(view);
  const sheet = h(
    'div',
    { testid: 'confirm-end', class: 'overlay', role: 'alertdialog', 'aria-labelledby': 'confirm-end-title' },
    h(
      'div',
      { class: 'overlay-box' },
      h('h2', { id: 'confirm-end-title', text: t('timer.end_title', { step: stepTitle(step) }) }),
      h('p', { text: detail }),
      h(
        'div',
        { class: 'sheet-buttons' },
        h('button', { type: 'button', testid: 'keep-going', class: 'primary', text: t('timer.keep_going'), onclick: () => sheet.remove() }),
        h('button', {
          type: 'button',
          testid: 'end-now',
          class: 'danger',
          text: `⏭ ${t('timer.end_now')}`,
          onclick: () => {
            sheet.remove();
            // (the step may have ended by itself while the sheet was open: "end" names no
            // step, and would cut the next one short)
            if (`${room.view?.year}:${room.view?.step}` === asked) room.attempt(room.link.timer('end'));
          },
        }),
      ),
    ),
  );
  document.body.append(sheet);
  sheet.querySelector('[data-testid="keep-going"]').focus();
}
