/**
 * The pause between a Year's end and the next night: when a phone that watched a Year go
 * by sees the next Hidden Phase begin, it covers the night screen with what happened at
 * the end of the Year (the jail vote and its result, from the public timeline) and "Night
 * N falls: hold your card, then choose", until the player taps on, with the night's
 * countdown beside its title (the cover hides the status bar's); a player who sits the
 * night out (jailed, eliminated: public facts) is told so instead. Built from public facts
 * only, so it is the same on every active phone, whatever the role; a phone opened
 * (or reloaded) in the middle of a night goes straight to it.
 *
 * It opens at its top, what the Year decided first (the testimony, the votes, who was jailed
 * or eliminated, the Year's result); the seats handed to bots or back to their players (the
 * server's notices, which come in at any time of the Year) are counted on one folded line
 * after them ("3 seats handed to bots"), and "On to the night" stays at the foot of the
 * screen however long the news.
 */

import { h, modal } from './dom.js';
import { t, tn } from './i18n.js';
import { Countdown } from './timer.js';
import { entryText } from './words.js';

/** What the end of a Year tells, from the discussion's close on. */
const END_OF_YEAR = new Set([
  'witness_testimony', 'forced_vote_called', 'vote_tally', 'jailing_blocked', 'player_jailed',
  'player_eliminated', 'nobody_jailed', 'notice', 'year_ended',
]);

/** The server's notices that say who plays a seat (a bot or its player): housekeeping. */
const SEATS = new Set(['stand_in', 'stand_in_ended']);

/** What the start of the next Year tells before its night. */
const START_OF_YEAR = new Set(['player_returned', 'presidency_ended']);

export class Nightfall {
  constructor() {
    this.seen = null; // the Year of the last view drawn
    this.element = null; // the cover, while it shows
    this.release = null; // what gives the page back (see dom.modal)
    this.countdown = null; // the night's, on the cover
  }

  /** Show, keep or take away the cover for `room`'s view (its public `story`). */
  update(room) {
    const view = room.view;
    if (!view) return;
    const night = view.step === 'hidden' && view.status !== 'finished';
    if (night && this.seen !== null && view.year > this.seen && !this.element) this.show(view.year, room);
    if (!night) this.close(); // the night is over (stale news): nothing to keep covered
    this.countdown?.set(room.timer); // (paused, resumed, given 30 s more by the host)
    this.seen = view.year;
  }

  show(year, room) {
    const story = room.story();
    const you = room.view.you;
    const out = Boolean(you) && you.status !== 'active'; // (a spectator's: the players')
    const ended = year - 1;
    const entries = story.filter((e) => !e.private);
    const inEnded = entries.filter((e) => e.year === ended);
    const opened = inEnded.findLastIndex((e) => e.kind === 'discussion_opened');
    const told = [
      ...inEnded.slice(opened + 1).filter((e) => END_OF_YEAR.has(e.kind)),
      ...entries.filter((e) => e.year === year && START_OF_YEAR.has(e.kind)),
    ];
    const seat = (e) => e.kind === 'notice' && SEATS.has(e.params.kind);
    const lines = told.filter((e) => !seat(e));
    const seats = told.filter(seat);
    const go = h('button', {
      type: 'button',
      testid: 'nightfall-continue',
      class: 'primary big',
      text: `🌙 ${t('nightfall.continue')}`,
      onclick: () => {
        this.close();
        window.scrollTo(0, 0); // the role card first, then the night's choice
      },
    });
    const clock = h('span', { testid: 'nightfall-timer', class: 'timer', role: 'timer' });
    this.countdown = new Countdown(clock, room.link);
    this.element = h(
      'div',
      { testid: 'nightfall', class: 'overlay nightfall', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'nightfall-title', data: { year } },
      h(
        'div',
        { class: 'overlay-box nightfall-box' },
        h('div', { class: 'nightfall-head' }, h('h2', { id: 'nightfall-title', text: t('nightfall.year_ended', { year: ended }) }), clock),
        newsList(lines, 'nightfall-news', 'nightfall-news'),
        seatsFold(seats),
        h(
          'div',
          { class: 'nightfall-foot' },
          // (who sits the night out, jailed or eliminated, is public: their line says so)
          h('p', { testid: 'nightfall-next', class: 'nightfall-next', text: `🌙 ${t(out ? 'nightfall.next_out' : 'nightfall.next', { year })}` }),
          go,
        ),
      ),
    );
    this.release = modal(this.element);
    go.focus({ preventScroll: true }); // (a focus that scrolled would open it at its foot)
    this.element.scrollTop = 0;
  }

  close() {
    this.release?.();
    this.release = null;
    this.element = null;
    this.countdown?.stop();
    this.countdown = null;
  }
}

function newsList(entries, testid, cls) {
  return h('ul', { testid, class: cls }, entries.map((entry) => h('li', { data: { kind: entry.kind }, text: entryText(entry) })));
}

/** The seats handed to bots, or back to their players, this Year: counted on one line,
 * folded (each notice inside), or nothing when there were none. */
function seatsFold(notices) {
  if (!notices.length) return null;
  const count = (kind) => new Set(notices.filter((e) => e.params.kind === kind).map((e) => e.params.player)).size;
  const handed = count('stand_in');
  const back = count('stand_in_ended');
  const summary = [handed && tn('nightfall.seats_handed', handed), back && tn('nightfall.seats_back', back)].filter(Boolean).join(' · ');
  return h(
    'details',
    { testid: 'nightfall-seats', class: 'nightfall-seats' },
    h('summary', { text: `🤖 ${summary}` }),
    newsList(notices, 'nightfall-seats-news', 'nightfall-news'),
  );
}
