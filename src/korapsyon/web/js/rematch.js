/**
 * Playing again (docs/CLIENT.md). Once a game is over the host asks the server for a new
 * room with the same seats and settings and a new deal (`rematch`): "Play again" asks
 * first, in place, since the new game starts at once and takes every phone away from the
 * results it shows (`rematchArea`). The old room then names it in its lobby (`next`), and
 * every page of the old room - phones, the board, the grimoire, spectators, and any page
 * that comes back to it later - moves there by itself, keeping its tokens: every token of
 * the old room opens the same place in the new one. They are kept under the new code
 * here, or, when another worker serves the new room (`next.url`), handed over to its
 * origin in the URL fragment (`handOver`).
 *
 * The finished game stays a tap away: a page that moved on says where it came from
 * (`?previous=OLD`) and offers the last game's results (`lastGame`), which open the old
 * room as it ended (`?review=1`: it does not move on), with the way back to the new game.
 */

import { armedAfter, h } from './dom.js';
import { t } from './i18n.js';
import { api } from './net.js';
import { handOver, loadTokens, saveTokens } from './tokens.js';


let moving = false;

/** The host's "Play again" is asking (`{code, at}`) or sent (`{code, sent: true}`); kept
 * here, so a redraw of the end screen meanwhile shows the same. */
let asking = null;

/** A room code as the pages write it (`?room=`, `?previous=`), or null. */
function codeOf(value) {
  const code = typeof value === 'string' ? value.trim().toUpperCase() : null;
  return code && /^[A-Z0-9]{1,16}$/.test(code) ? code : null;
}

/** Whether this page shows a finished room on purpose (`?review=1`): it does not move on. */
function reviewing() {
  return new URLSearchParams(location.search).has('review');
}

/**
 * Go to `next` (`{code, url}`), the room the table of room `code` moved on to: this page
 * (phone, board or grimoire, spectating or not) with the same tokens, under the new code,
 * saying where it came from (`previous`). A page that shows the old room on purpose
 * (`review`) stays, unless `asked` (its "To the new game").
 */
export function moveOn(code, next, asked = false) {
  if (moving || !next?.code || next.code === code || (reviewing() && !asked)) return;
  moving = true;
  const tokens = loadTokens(code);
  const search = new URLSearchParams(location.search);
  search.set('room', next.code);
  search.set('previous', code);
  search.delete('review');
  const path = `${location.pathname}?${search}`;
  const there = next.url ? new URL(next.url).origin : location.origin;
  if (there === location.origin) {
    if (Object.keys(tokens).length) saveTokens(next.code, { ...tokens, previous: code }); // (a page opened without `?previous`)
    location.assign(path);
  } else {
    location.assign(handOver(`${there}${path}`, tokens)); // kept there, not here
  }
}

/**
 * What the end screen offers about playing again (`end-actions`' first part): to the host,
 * "Play again" (`rematch`), whose tap asks in place (`rematch-ask`: "Not now", focused,
 * and a "Play again" that takes taps only a moment after it appears, so a double tap sends
 * nothing); to everyone else, that their page will follow (`rematch-hint`). Once the table
 * has played again, a page that shows this game on purpose (`review`) offers the way to
 * the new one instead (`rematch-next`). `onError(exc)` shows a refusal.
 */
export function rematchArea(room, onError) {
  const next = room.lobby?.next;
  if (next?.code && next.code !== room.code) {
    return h(
      'div',
      { class: 'rematch-next' },
      h('p', { class: 'hint', text: `🔁 ${t('end.rematch_played')}` }),
      h('button', {
        type: 'button',
        testid: 'rematch-next',
        class: 'primary big',
        text: `▶ ${t('end.rematch_to_new')}`,
        onclick: () => moveOn(room.code, next, true),
      }),
    );
  }
  const hostToken = loadTokens(room.code).host_token;
  if (!room.welcome?.host || !hostToken) {
    const follow = room.view?.you ? 'end.rematch_wait' : 'end.rematch_follow';
    return h('p', { testid: 'rematch-hint', class: 'hint', text: `🔁 ${t(follow)}` });
  }
  const area = h('div', { class: 'rematch-area' });
  const draw = (focus) => {
    const mine = asking?.code === room.code ? asking : null;
    area.replaceChildren(mine?.sent ? dealing() : mine ? question(mine) : playAgain());
    if (focus) area.querySelector(`[data-testid="${focus}"]`)?.focus({ preventScroll: true });
  };
  const playAgain = () =>
    h('button', {
      type: 'button',
      testid: 'rematch',
      class: 'primary big',
      text: `🔁 ${t('end.rematch')}`,
      onclick: () => {
        asking = { code: room.code, at: performance.now() };
        draw('rematch-not-now'); // (the safe answer has the focus, as this button had)
      },
    });
  const dealing = () => h('button', { type: 'button', testid: 'rematch', class: 'primary big', disabled: true, text: `⏳ ${t('end.rematching')}` });
  const question = (mine) => {
    const yes = h('button', {
      type: 'button',
      testid: 'rematch-yes',
      class: 'primary big',
      text: `🔁 ${t('end.rematch_yes')}`,
      onclick: async () => {
        asking = { code: room.code, sent: true };
        draw();
        try {
          const answer = await api('POST', `/api/rooms/${encodeURIComponent(room.code)}/rematch`, undefined, hostToken);
          moveOn(room.code, answer.next, true);
        } catch (exc) {
          asking = null;
          draw();
          onError(exc);
        }
      },
    });
    armedAfter(yes, mine.at); // (a double tap's second lands on it, disabled)
    return h(
      'div',
      { testid: 'rematch-ask', class: 'rematch-ask', role: 'group', 'aria-labelledby': 'rematch-ask-q' },
      h('p', { id: 'rematch-ask-q', class: 'rematch-ask-q', text: t('end.rematch_ask') }),
      h(
        'div',
        { class: 'rematch-ask-buttons' },
        h('button', {
          type: 'button',
          testid: 'rematch-not-now',
          class: 'big',
          text: t('end.rematch_not_now'),
          onclick: () => {
            asking = null;
            draw('rematch');
          },
        }),
        yes,
      ),
    );
  };
  draw();
  return area;
}

/**
 * The way back to the game this page's table played before this one (`?previous=OLD`,
 * set by `moveOn`, or kept with the room's tokens: the lobby's way back opens the room
 * without it), or null: `last-game`, a link to that room's end screen as it ended
 * (`?review=1`), on the same page kind (a spectator's stays a spectator's). The page puts
 * it where it is seen first (docs/CLIENT.md).
 */
export function lastGame() {
  const search = new URLSearchParams(location.search);
  const room = codeOf(search.get('room'));
  const previous = codeOf(search.get('previous')) ?? (room ? codeOf(loadTokens(room).previous) : null);
  if (!previous || previous === room) return null;
  const there = new URLSearchParams({ room: previous, review: '1' });
  if (search.has('spectate')) there.set('spectate', search.get('spectate'));
  return h(
    'p',
    { testid: 'last-game', class: 'last-game' },
    h('span', { class: 'last-game-new', 'data-i18n': 'end.rematch_arrived' }),
    ' ',
    h('a', { testid: 'last-game-link', href: `${location.pathname}?${there}`, 'data-i18n': 'end.last_game' }),
  );
}
