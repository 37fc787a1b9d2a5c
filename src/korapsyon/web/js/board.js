/**
 * The board screen (`/board?room=CODE`): the table's TV or laptop. Before the start it
 * shows the waiting room with a large QR code (and the host's controls when this
 * browser holds the host token); then the public view, large - Year and step, the
 * trackers, the treasury report and its chart, players with their tags and latest
 * claims, President, project and tally, how many have voted, the news, the timer and the
 * timeline - with the script narrated aloud, and each result revealed full screen.
 *
 * A TV mode (`html.tv`, css/app.css): the whole board fits the screen without scrolling
 * at 720p, 1080p and 4K (whatever the device pixel ratio), its type scaled with the
 * screen, so it reads from across a room.
 */

import { byTestId, h, renderIfChanged, rerender } from './dom.js';
import { cueText } from './words.js';
import { language, t } from './i18n.js';
import { chartLegend, treasuryChart, treasuryTile, treasuryYears } from './chart.js';
import { endScreen } from './endscreen.js';
import { Narrator } from './narrate.js';
import { Reveal } from './reveal.js';
import { runPage } from './shell.js';
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
    this.reveal = new Reveal();
    this.timerEl = h('div', { testid: 'board-timer', class: 'board-timer', role: 'timer' });
    this.countdown = new Countdown(this.timerEl, room.link);
    this.waiting = h('div', { class: 'waiting-slot board-waiting' });
    this.waitingTitle = h('h1', { class: 'sr-only' }); // (the game's heading is its Year and step)
    this.slots = {
      head: h('div', { class: 'board-head-facts' }),
      voted: h('div', { class: 'board-voted-slot' }),
      host: h('div', { class: 'board-host' }),
      facts: h('div', { class: 'board-facts' }),
      players: h('div', { class: 'board-side' }),
      chart: h('div', { class: 'board-chart' }),
      timeline: h('div', { class: 'board-timeline' }),
      end: h('div', { class: 'board-end' }),
    };
    this.script = h('p', { class: 'script', 'aria-live': 'off' });
    this.main = h(
      'div',
      { class: 'board-main' },
      h('div', { class: 'board-col board-col-facts' }, this.slots.facts),
      h('div', { class: 'board-col board-col-news' }, this.script, this.slots.chart, this.news.element, this.slots.timeline),
      h('div', { class: 'board-col board-col-players' }, this.slots.players),
    );
    this.game = h(
      'section',
      { class: 'board', hidden: true },
      h(
        'div',
        { class: 'board-top' },
        h(
          'div',
          { class: 'board-status' },
          h('div', { class: 'board-status-row' }, this.narrator.button, this.slots.head),
          h('div', { class: 'board-status-row' }, this.slots.voted, this.timerEl),
        ),
        this.slots.host,
      ),
      h('div', { class: 'board-stage' }, this.slots.end, this.main, this.reveal.element),
    );
    byTestId('app').replaceChildren(this.waitingTitle, this.waiting, this.game);
  }

  /** Draw the room; `why` is the message that changed it (only updates reveal). */
  draw(why) {
    const room = this.room;
    const view = room.view;
    this.narrator.draw();
    this.game.hidden = !view;
    this.waitingTitle.hidden = !!view;
    this.waitingTitle.textContent = t('waiting.title');
    document.documentElement.classList.toggle('board-waiting-room', !view);
    drawWaiting(this.waiting, room, this.tokens);
    if (!view) return;
    this.countdown.set(room.timer);
    const line = cueText(view.cue);
    this.narrator.say(line);
    this.script.textContent = line ? `🎙 ${line}` : '';
    rerender(this.slots.head, yearAndStep(view));
    rerender(this.slots.host, room.welcome?.host ? hostControls(room, view) : []);
    this.news.update(room.fresh);
    if (why === 'update') this.reveal.show(room.fresh, view, room.timeline);
    rerender(this.slots.voted, votedCount(view));
    const years = treasuryYears(view, room.timeline);
    rerender(this.slots.facts, trackers(view), treasuryTile(years), presidentInfo(view), projectInfo(view, { names: false }));
    rerender(this.slots.players, playersList(view, room.timeline));
    this.slots.players.style.setProperty('--rows', String(Math.ceil(view.players.length / 2))); // CSSOM: allowed by the CSP
    renderIfChanged(this.slots.chart, [language(), years], () => [
      h('h2', { text: `📉 ${t('chart.title')}` }),
      treasuryChart(years),
      chartLegend(),
    ]);
    renderIfChanged(this.slots.timeline, [language(), room.timeline.length, room.notices.length], () => [
      h('h2', { class: 'sr-only', text: t('timeline.title') }),
      timelineList(room.story(), { limit: 12 }),
    ]);
    const over = Boolean(view.outcome);
    this.game.classList.toggle('over', over);
    renderIfChanged(this.slots.end, [language(), view.outcome, room.timeline.length], () =>
      over ? endScreen(room, view) : [],
    );
    if (over) fitToScreen(this.slots.end.querySelector('[data-testid="end-screen"]'));
  }
}

/**
 * The end screen on a TV holds a game of any length (Years, players, long names): its
 * type is made smaller, step by step, until nothing is cut off (the screen's own size is
 * the start), and again when anything in it changes size (a window resized, a font loaded
 * late, the nights table's next page). Down to the type a room reads (`COMFORT_REM`), it
 * only shrinks; then the parts marked `data-fit-optional` - each of the analysis's
 * moments, the recap - give way (the last first) before it shrinks on, down to its floor, and come
 * back if they fit. `data-fit="done"`: it has been fitted once.
 */
function fitToScreen(el) {
  if (!el || el.dataset.fit) return;
  const cut = () => el.scrollHeight > el.clientHeight + 1;
  const fit = () => {
    el.style.removeProperty('font-size'); // CSSOM: allowed by the CSP
    const optional = [...el.querySelectorAll('[data-fit-optional]')];
    for (const part of optional) part.hidden = false;
    let size = parseFloat(getComputedStyle(el).fontSize);
    const shrink = (floor) => {
      while (cut() && size > floor) {
        size *= 0.94;
        el.style.fontSize = `${size}px`;
      }
    };
    shrink(COMFORT_REM * parseFloat(getComputedStyle(document.documentElement).fontSize));
    // what may go goes (the last first) before the type gets smaller still, and comes back
    // if it fits after all
    const gone = [];
    while (cut() && optional.length) gone.push(Object.assign(optional.pop(), { hidden: true }));
    shrink(FLOOR_PX);
    for (const part of gone.reverse()) {
      part.hidden = false;
      if (cut()) part.hidden = true;
    }
    el.dataset.fit = 'done';
  };
  fit(); // (at once: the screen is never shown cut)
  // and whenever it or what it holds changes size: a window resized, the room around it
  // settling (a bar above it shown late), a font (the emoji) loaded late, the nights
  // table's next page (the next frame: never inside the observation)
  const observer = new ResizeObserver(() => requestAnimationFrame(() => el.isConnected ? fit() : observer.disconnect()));
  observer.observe(el);
  for (const part of el.children) observer.observe(part);
  addEventListener('resize', () => el.isConnected && requestAnimationFrame(fit));
}

// The end screen's type: the smallest it is made before its optional parts give way (the
// board's root type is the screen's: 16 px at 720p, 24 px at 1080p), and its floor.
const COMFORT_REM = 0.8;
const FLOOR_PX = 10;

runPage('board', (tokens) => (tokens.host_token ? { host_token: tokens.host_token } : { spectate: true }), Board);
