/**
 * Playing again (docs/CLIENT.md). Once a game is over the host's one tap asks the server
 * for a new room with the same seats and settings and a new deal (`rematch`); the old
 * room then names it in its lobby (`next`), and every page of the old room - phones, the
 * board, the grimoire, spectators, and any page that comes back to it later - moves there
 * by itself, keeping its tokens: every token of the old room opens the same place in the
 * new one. They are kept under the new code here, or, when another worker serves the new
 * room (`next.url`), handed over to its origin in the URL fragment (`handOver`).
 */

import { h } from './dom.js';
import { t } from './i18n.js';
import { api } from './net.js';
import { handOver, loadTokens, saveTokens } from './tokens.js';

let moving = false;

/**
 * Go to `next` (`{code, url}`), the room the table of room `code` moved on to: this page
 * (phone, board or grimoire, spectating or not) with the same tokens, under the new code.
 */
export function moveOn(code, next) {
  if (moving || !next?.code || next.code === code) return;
  moving = true;
  const tokens = loadTokens(code);
  const search = new URLSearchParams(location.search);
  search.set('room', next.code);
  const path = `${location.pathname}?${search}`;
  const there = next.url ? new URL(next.url).origin : location.origin;
  if (there === location.origin) {
    if (Object.keys(tokens).length) saveTokens(next.code, tokens);
    location.assign(path);
  } else {
    location.assign(handOver(`${there}${path}`, tokens)); // kept there, not here
  }
}

/**
 * The host's "play again" (`rematch`), on the end screen: one tap, and every page of the
 * table moves to the new game. A second tap (or a second host's screen) changes nothing:
 * the server answers with the same new room. `onError(exc)` shows a refusal.
 */
export function rematchButton(room, onError) {
  const hostToken = loadTokens(room.code).host_token;
  if (!room.welcome?.host || !hostToken) return null;
  const button = h('button', {
    type: 'button',
    testid: 'rematch',
    class: 'primary big',
    text: `🔁 ${t('end.rematch')}`,
    onclick: async () => {
      button.disabled = true;
      button.textContent = `⏳ ${t('end.rematching')}`;
      try {
        const answer = await api('POST', `/api/rooms/${encodeURIComponent(room.code)}/rematch`, undefined, hostToken);
        moveOn(room.code, answer.next);
      } catch (exc) {
        button.disabled = false;
        button.textContent = `🔁 ${t('end.rematch')}`;
        onError(exc);
      }
    },
  });
  return button;
}
