/**
 * The host's (and the moderator's) control of stand-ins, in the host tools of the phone,
 * the board and the grimoire: one row per person whose phone is away (no connection, or
 * the timer's default in two steps in a row, the lobby's `away`) or whose seat a bot plays
 * meanwhile (`stand_in`). "Let a bot play" hands the seat to a bot that plays from that
 * seat's view only; "Take the bot off" gives it back to wait for its player. The seat is
 * handed back by itself when its player's phone comes back, and the table is told both
 * ways (notices). Nothing is listed while every phone is here, so nothing moves above it.
 */

import { h } from './dom.js';
import { t } from './i18n.js';

const ARMED_MS = 800; // a row's button takes taps only this long after the row changed
const changed = new Map(); // seat name -> [state, when it was first drawn so]

export function standInControls(room, view) {
  if (view.status === 'finished') return null;
  const status = new Map(view.players.map((p) => [p.name, p.status]));
  const seats = (room.lobby?.seats ?? []).filter(
    (seat) => !seat.bot && (seat.away || seat.stand_in) && status.get(seat.name) !== 'eliminated',
  );
  if (!seats.length) return null;
  return h(
    'div',
    { testid: 'stand-ins', class: 'stand-ins', role: 'group', 'aria-labelledby': 'stand-ins-title' },
    h('h3', { id: 'stand-ins-title', text: `📵 ${t('standin.title')} (${seats.length})` }), // (the list keeps to a few rows on the board)
    h('ul', {}, seats.map((seat) => row(room, seat))),
  );
}

function row(room, seat) {
  const state = seat.stand_in ? 'bot' : 'away';
  const send = (bot) => room.attempt(room.link.send({ type: 'stand_in', player: seat.name, bot }));
  const button = seat.stand_in
    ? h('button', { type: 'button', testid: 'stand-in-stop', class: 'small', 'aria-label': t('standin.stop_for', { player: seat.name }), text: `✋ ${t('standin.stop')}`, onclick: () => send(null) })
    : h('button', { type: 'button', testid: 'stand-in', class: 'small', 'aria-label': t('standin.hand_for', { player: seat.name }), text: `🤖 ${t('standin.hand')}`, onclick: () => send('heuristic') });
  // No control turns into its opposite under a finger: a second tap right after the row
  // changed (a double tap on "Let a bot play") lands on a button that is not armed yet.
  const [seen, since] = changed.get(seat.name) ?? [];
  const now = Date.now();
  if (seen !== state) changed.set(seat.name, [state, now]);
  const wait = seen === state ? since + ARMED_MS - now : seen === undefined ? 0 : ARMED_MS;
  if (wait > 0) {
    button.disabled = true;
    setTimeout(() => (button.disabled = false), wait);
  }
  return h(
    'li',
    { testid: 'stand-in-seat', class: `stand-in-seat ${state}`, data: { name: seat.name, state } },
    h('span', { class: 'stand-in-who', text: t(seat.stand_in ? 'standin.playing' : 'standin.away', { player: seat.name }) }),
    button,
  );
}
