/**
 * The board screen (`/board?room=CODE`): the table's TV or laptop. Before the start it
 * shows the waiting room with a large QR code (and the host's controls when this
 * browser holds the host token); then the public view, large - Year and step, the
 * trackers, players, President, project and tally, how many have voted, the news, the
 * timer, the treasury chart and the timeline - with the script narrated aloud.
 */

import { byId, h, renderIfChanged, rerender } from './dom.js';
import { cueText } from './words.js';
import { language, t } from './i18n.js';
import { loadTokens } from './net.js';
import { kabanPoints, treasuryChart } from './chart.js';
import { endScreen } from './endscreen.js';
import { Narrator } from './narrate.js';
import { RoomState, requireRoom, startPage } from './shell.js';
import { playersList, presidentInfo, projectInfo, trackers, votedCount, yearAndStep } from './table.js';
import { Countdown, hostControls } from './timer.js';
import { NewsBanner, timelineList } from './timeline.js';
import { drawWaiting } from './waiting.js';

class Board {
  constructor(room, tokens) {
    this.room = room;
    this.tokens = tokens;
    this.news = new NewsBanner();
    this.narrator = new Narrator();
    this.timerEl = h('div', { testid: 'board-timer', class: 'board-timer', role: 'timer' });
    this.countdown = new Countdown(this.timerEl, room.link);
    this.waiting = h('div', { class: 'waiting-slot board-waiting' });
    this.slots = {
      head: h('div', { class: 'board-head-facts' }),
      voted: h('div', { class: 'board-voted-slot' }),
      host: h('div', { class: 'board-host' }),
      facts: h('div', { class: 'board-facts' }),
      players: h('div', { class: 'board-side' }),
      chart: h('div', { class: 'board-chart' }),
      timeline: h('div', { class: 'board-timeline' }),
      end: h('div'),
    };
    this.script = h('p', { class: 'script', 'aria-live': 'off' });
    this.game = h(
      'section',
      { class: 'board', hidden: true },
      h('div', { class: 'board-top' }, this.slots.head, this.slots.voted, this.timerEl, this.narrator.button, this.slots.host),
      this.slots.end,
      h(
        'div',
        { class: 'board-main' },
        h('div', { class: 'board-col' }, this.news.element, this.script, this.slots.facts),
        h('div', { class: 'board-col' }, this.slots.chart, this.slots.timeline),
        h('div', { class: 'board-col' }, this.slots.players),
      ),
    );
    byId('app').replaceChildren(this.waiting, this.game);
  }

  draw() {
    const room = this.room;
    const view = room.view;
    this.narrator.draw();
    this.game.hidden = !view;
    drawWaiting(this.waiting, room, this.tokens);
    if (!view) return;
    this.countdown.set(room.timer);
    const line = cueText(view.cue);
    this.narrator.say(line);
    this.script.textContent = line ? `🎙 ${line}` : '';
    rerender(this.slots.head, yearAndStep(view));
    rerender(this.slots.host, room.welcome?.host ? hostControls(room, view) : []);
    this.news.update(room.fresh);
    rerender(this.slots.voted, votedCount(view));
    rerender(this.slots.facts, trackers(view), presidentInfo(view), projectInfo(view));
    rerender(this.slots.players, playersList(view));
    const points = kabanPoints(view);
    renderIfChanged(this.slots.chart, [language(), points], () => [h('h2', { text: `📈 ${t('chart.title')}` }), treasuryChart(points)]);
    renderIfChanged(this.slots.timeline, [language(), room.timeline.length, room.notices.length], () => timelineList(room.story(), { limit: 8 }));
    renderIfChanged(this.slots.end, [language(), view.outcome, room.timeline.length], () =>
      view.outcome ? endScreen(room, view) : [],
    );
  }
}

async function main() {
  let board = null;
  await startPage('board', () => board?.draw());
  const code = requireRoom();
  if (!code) return;
  const tokens = loadTokens(code);
  const hello = tokens.host_token ? { host_token: tokens.host_token } : { spectate: true };
  const room = new RoomState(hello, () => board.draw());
  board = new Board(room, tokens);
  room.connect();
}

main();
