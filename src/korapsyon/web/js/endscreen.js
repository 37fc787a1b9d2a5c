/**
 * The end of the game (R-50, R-51), shared by the phone, the board and the grimoire.
 *
 * On a phone, short: first this player's own result in words of their team ("You won",
 * "You lost", or what a draw means), then the table's result and why (no rule ids), the
 * host's "play again", which asks first (everyone else is told that their page will
 * follow, and that these results stay a tap away; rematch.js), and
 * the details folded: the night-by-night reveal, who looked Corrupt to this player Year
 * by Year, everyone's role, the Year-by-Year recap.
 * On the board, large: the table's result, the night-by-night reveal and its chart, who
 * looked Corrupt Year by Year (analysis.js), every role. The phone's folds hold this
 * seat's own analysis too. The game record can be downloaded by the table only.
 */

import { myAnalysis, tableAnalysis } from './analysis.js';
import { fitOptional, h } from './dom.js';
import { tableToken } from './tokens.js';
import { showError } from './shell.js';
import { roleTitle, t } from './i18n.js';
import { recap } from './timeline.js';
import { nightReveal, revealTable } from './nights.js';
import { rematchArea } from './rematch.js';
import { roleBadge } from './roles.js';
import { errorText, teamName } from './words.js';

const WIN_ICONS = { good: '🛡', bad: '💰', draw: '⚖' };

export function endScreen(room, view) {
  const { winner, reason } = view.outcome;
  const board = document.body.classList.contains('page-board');
  const roles = rolesRevealed(view);
  const years = recap(room.story());
  const both = bothReached(view);
  return h(
    'section',
    { testid: 'end-screen', class: `end-screen team-${winner}${board ? ' end-board' : ''}` },
    myResult(view),
    h(
      'div',
      { class: 'end-head' },
      h(
        'div',
        { class: 'table-result' },
        h('h2', { testid: 'winner', data: { team: winner }, class: `winner team-${winner}` }, `${WIN_ICONS[winner] || ''} ${t(`end.winner.${winner}`)}`),
        h('p', { testid: 'win-reason', class: 'win-reason', data: { both: String(both) }, text: [t(`end.reason.${reason}`), both ? t('end.reason.both') : null].filter(Boolean).join(' ') }),
      ),
      h(
        'div',
        { class: 'end-actions' },
        rematchArea(room, (exc) => showError(errorText(exc))),
        board ? null : recordButton(room),
      ),
    ),
    board
      ? boardBody(room, view, roles, years)
      : [fold('night', nightReveal(view)), fold('analysis', myAnalysis(room, view)), fold('roles', roles), fold('recap', years)],
  );
}

/**
 * The board's details in two columns, each its own stack: the nights table, every role
 * and the recap; beside them the Fund chart (out of the reveal), who looked Corrupt and
 * the record's download.
 */
function boardBody(room, view, roles, years) {
  const reveal = revealTable(view);
  const chart = reveal?.querySelector('.nights-chart') ?? null;
  chart?.remove();
  return h(
    'div',
    { class: 'end-board-body' },
    h('div', { class: 'end-board-main' }, reveal, roles, fitOptional(fold('recap', years))),
    h('div', { class: 'end-board-side' }, chart, tableAnalysis(room, view), recordButton(room)),
  );
}

const opened = new Set(); // the phone's folds the player opened: redraws keep them open

/**
 * A closed fold of the phone's end screen (`end-fold` with `data-fold`). A ``body`` that
 * is a function is drawn when the fold is first open (its work is not done for a fold
 * nobody opens).
 */
function fold(name, body) {
  if (!body) return null;
  const later = typeof body === 'function' ? body : null;
  let drawn = !later;
  const drawBody = () => {
    if (drawn) return;
    drawn = true;
    const content = later();
    if (content) details.append(content);
  };
  const details = h(
    'details',
    {
      testid: 'end-fold',
      class: 'end-fold',
      data: { fold: name },
      open: opened.has(name),
      ontoggle: (event) => {
        if (event.target.open) {
          opened.add(name);
          drawBody();
        } else {
          opened.delete(name);
        }
      },
    },
    h('summary', { text: later?.title ?? t(`end.fold.${name}`) }), // (analysis.js may name its fold)
    later ? null : body,
  );
  if (opened.has(name)) drawBody();
  return details;
}

/**
 * Whether the Corruption Fund reached its target too in the Year Public Spending did: the
 * Good team wins, its goal being checked first (R-50), and the end says so (a Corrupt
 * player who sees the Fund over its line would think the result wrong).
 */
function bothReached(view) {
  const fund = view.reveal?.trackers?.at(-1)?.corruption_fund;
  const target = view.targets?.corruption_fund;
  return view.outcome.reason === 'public_spending' && fund !== undefined && target !== undefined && fund >= target;
}

/**
 * This player's own result, in words of their team (a phone with a seat only): won,
 * lost, or, for a draw, what that means; and the role they played.
 */
function myResult(view) {
  const you = view.you;
  if (!you) return null;
  const { winner } = view.outcome;
  const result = winner === 'draw' ? 'draw' : winner === you.team ? 'won' : 'lost';
  return h(
    'div',
    { testid: 'my-result', class: `my-result ${result} team-${you.team}`, data: { result, team: you.team } },
    h('p', { class: 'my-headline', text: `${{ won: '🎉', lost: '😔', draw: '⚖' }[result]} ${t(`end.mine.${result}`)}` }),
    h('p', { class: 'my-team', text: t(`end.mine.${result}.${you.team}${result === 'lost' && you.team === 'bad' && bothReached(view) ? '_both' : ''}`, { role: roleTitle(you.role), team: teamName(you.team) }) }),
  );
}

function rolesRevealed(view) {
  return h(
    'ul',
    { testid: 'roles-revealed', class: 'roles-revealed', 'aria-label': t('end.roles') },
    view.players.map((player) =>
      h(
        'li',
        { testid: 'revealed-role', data: { name: player.name, role: player.role }, class: `status-${player.status}` },
        h('bdi', { class: 'name', title: player.name, text: player.name }),
        player.role ? roleBadge(player.role) : h('span', { text: '?' }),
        player.status !== 'active' ? h('span', { class: 'tag', text: t(`status.${player.status}`) }) : null,
      ),
    ),
  );
}

/**
 * The game record's download: it is for the table, so it is asked for with this page's
 * token of the room (a seat's, the host's or the moderator's), unless the host published
 * it (`public_record`). A page with neither (a spectator) is offered nothing.
 */
function recordButton(room) {
  const token = tableToken(room.code);
  if (!token && !room.lobby?.settings?.public_record) return null;
  const button = h('button', {
    type: 'button',
    testid: 'download-record',
    class: 'button small',
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
