/**
 * The end of the game (R-50, R-51): who won and why, every role revealed, the recap of
 * each Year, and the game record to download. Shared by the phone and the board.
 */

import { h } from './dom.js';
import { t } from './i18n.js';
import { recap } from './timeline.js';
import { roleBadge } from './roles.js';

const WIN_ICONS = { good: '🛡', bad: '💰', draw: '⚖' };

export function endScreen(code, view, timeline) {
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
          h('span', { class: 'name', text: player.name }),
          player.role ? roleBadge(player.role) : h('span', { text: '?' }),
          player.status !== 'active' ? h('span', { class: 'tag', text: t(`status.${player.status}`) }) : null,
        ),
      ),
    ),
    recap(timeline),
    h('a', {
      testid: 'download-record',
      class: 'button',
      href: `/api/rooms/${encodeURIComponent(code)}/record`,
      download: `korapsyon-${code}.json`,
      text: `⬇ ${t('end.download')}`,
    }),
    h('p', { class: 'hint', text: t('end.again') }),
  );
}

