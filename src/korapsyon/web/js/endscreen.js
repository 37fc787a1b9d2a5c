/**
 * The end of the game (R-50, R-51): who won and why, every role revealed, the recap of
 * each Year, and the game record to download (for the table only). Shared by the phone
 * and the board.
 */

import { h } from './dom.js';
import { loadTokens } from './net.js';
import { showError } from './shell.js';
import { t } from './i18n.js';
import { recap } from './timeline.js';
import { roleBadge } from './roles.js';
import { errorText } from './words.js';

const WIN_ICONS = { good: '🛡', bad: '💰', draw: '⚖' };

export function endScreen(room, view) {
  const { winner, reason, rule } = view.outcome;
  return h(
    'section',
    { testid: 'end-screen', class: `end-screen team-${winner}` },
    h('h2', { testid: 'winner', data: { team: winner }, class: `winner team-${winner}` }, `${WIN_ICONS[winner] || ''} ${t(`end.winner.${winner}`)}`),
    h('p', { testid: 'win-reason', class: 'win-reason', text: `${t(`end.reason.${reason}`)} (${rule})` }),
    h(
      'ul',
      { testid: 'roles-revealed', class: 'roles-revealed', 'aria-label': t('end.roles') },
      view.players.map((player) =>
        h(
          'li',
          { testid: 'revealed-role', data: { name: player.name, role: player.role }, class: `status-${player.status}` },
          h('bdi', { class: 'name', text: player.name }),
          player.role ? roleBadge(player.role) : h('span', { text: '?' }),
          player.status !== 'active' ? h('span', { class: 'tag', text: t(`status.${player.status}`) }) : null,
        ),
      ),
    ),
    recap(room.story()),
    recordButton(room),
    h('p', { class: 'hint', text: t('end.again') }),
  );
}

/**
 * The game record's download: it is for the table, so it is asked for with this page's
 * token of the room (a seat's, the host's or the moderator's), unless the host published
 * it (`public_record`). A page with neither (a spectator) is offered nothing.
 */
function recordButton(room) {
  const tokens = loadTokens(room.code);
  const token = tokens.token || tokens.host_token || tokens.moderator_token;
  if (!token && !room.lobby?.settings?.public_record) return null;
  const button = h('button', {
    type: 'button',
    testid: 'download-record',
    class: 'button',
    text: `⬇ ${t('end.download')}`,
    onclick: async () => {
      button.disabled = true;
      try {
        const path = `/api/rooms/${encodeURIComponent(room.code)}/record`;
        const record = await fetch(path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
        if (!record.ok) throw new Error((await record.json().catch(() => ({}))).error?.message || record.statusText);
        const url = URL.createObjectURL(await record.blob());
        const link = h('a', { href: url, download: `korapsyon-${room.code}.json`, hidden: true });
        document.body.append(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(url), 60_000);
      } catch (exc) {
        showError(errorText(exc));
      } finally {
        button.disabled = false;
      }
    },
  });
  return button;
}
