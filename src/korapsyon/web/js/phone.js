/**
 * The phone (`/play?room=CODE`, or `&spectate=1`): the waiting room (and the guide) before
 * the start, then the game from the player's own view - role card, decisions, results,
 * talk, the table's public facts and the timeline, a pause before each night after the
 * first - and the end screen. The host's phone also gets the timer controls and closes
 * the discussion.
 */

import { setBar, setNote, setWaiting, waitingText } from './bar.js';
import { Fold, byTestId, h, renderIfChanged } from './dom.js';
import { language, stepTitle, t } from './i18n.js';
import { Decisions, whoDecides } from './decide.js';
import { endScreen } from './endscreen.js';
import { RoleCard } from './rolecard.js';
import { runPage } from './shell.js';
import { playersList, presidentInfo, projectInfo, trackers, votedCount } from './table.js';
import { Chat, Claims } from './talk.js';
import { guideButton } from './guide.js';
import { Nightfall } from './nightfall.js';
import { Countdown, hostControls } from './timer.js';
import { NewsBanner, timelineList } from './timeline.js';
import { drawWaiting, lobbyLine } from './waiting.js';

const spectating = new URLSearchParams(location.search).get('spectate') === '1';

class Phone {
  constructor(room, tokens) {
    this.room = room;
    this.tokens = tokens;
    this.news = new NewsBanner();
    this.claims = new Claims(room, () => this.draw());
    this.nightfall = new Nightfall();
    this.ended = false; // the game's end has been drawn (the page opens it at its top)
    this.decisions = new Decisions(room, () => this.draw());
    this.chat = new Chat(room);
    this.roleCard = new RoleCard(room);
    this.waiting = h('div', { class: 'waiting-slot' });
    this.waitingGuide = h('div', { class: 'waiting-guide', hidden: true });
    this.year = h('span', { testid: 'year', class: 'year' });
    this.me = h('p', { class: 'me' });
    this.stepTitle = h('h1', { testid: 'step-title', class: 'step-title' });
    this.timerEl = h('span', { testid: 'timer', class: 'timer', role: 'timer' });
    // (the held role card covers the status bar: it shows the same clock)
    this.countdown = new Countdown([this.timerEl, this.roleCard.clock], room.link);
    this.help = h('p', { class: 'step-help' });
    this.slots = {
      end: h('div'),
      decision: h('div', { class: 'decision-slot' }),
      host: h('div'),
      claims: h('div'),
    };
    this.table = new Fold('table-facts', spectating);
    this.timeline = new Fold('timeline-box');
    this.private = new Fold('private-fold');
    this.spectatorTag = h('p', { class: 'tag spectator' });
    this.screen = h(
      'section',
      { testid: 'screen', class: 'screen', hidden: true },
      this.me,
      this.help,
      this.slots.end,
      spectating ? this.spectatorTag : this.roleCard.element,
      this.news.element,
      this.slots.decision,
      this.slots.host,
      this.slots.claims,
      this.chat.element,
      this.table.element,
      this.timeline.element,
    );
    byTestId('app').replaceChildren(this.waitingGuide, this.waiting, this.screen);
    // the status bar (bar.js), the same on every phone: the step and its timer, the Year
    setBar({ main: [this.stepTitle, this.timerEl], line: [this.year] });
  }

  draw() {
    const room = this.room;
    const view = room.view;
    const appearing = Boolean(view) && this.screen.hidden;
    this.screen.hidden = !view;
    if (appearing) window.scrollTo(0, 0); // (the host's waiting room was scrolled down to Start)
    const waiting = drawWaiting(this.waiting, room, this.tokens);
    this.waitingGuide.hidden = !waiting;
    renderIfChanged(this.waitingGuide, [language(), waiting], () => (waiting ? guideButton('waiting') : []));
    if (!view) {
      this.stepTitle.textContent = t('waiting.title');
      this.year.textContent = '';
      setWaiting(room.lobby ? lobbyLine(room) : '');
      return;
    }
    setWaiting(waitingText(view));
    const you = view.you;
    const screen = this.screen;
    screen.dataset.step = view.step ?? '';
    screen.dataset.toAct = String(Boolean(you?.to_act));
    screen.dataset.status = view.status;
    this.year.textContent = t('year.long', { year: view.year });
    this.me.textContent = you ? t('phone.you', { name: you.name }) : '';
    this.stepTitle.textContent = view.step ? stepTitle(view.step) : t('step.over');
    this.help.textContent = view.step ? t(`help.${view.step}`) : '';
    this.spectatorTag.textContent = `👁 ${t('phone.spectating')}`;
    this.countdown.set(room.timer);
    if (you) this.roleCard.update(view, room.timeline);
    this.roleCard.element.hidden = view.status === 'finished'; // every role is shown now
    // a bot plays this seat (two decisions went by): said in the bar, never scrolled
    // away, with how to have it back (the table is told too, in its timeline)
    const standIn = Boolean(you && view.status !== 'finished' && room.lobby?.seats?.find((s) => s.name === you.name)?.stand_in);
    setNote(standIn ? `🤖 ${t('standin.mine')}` : '');
    if (you) this.decisions.follow(view, standIn); // (a pick the last step did not count)
    this.nudge(view);
    this.news.update(room.fresh);
    // (last Year's news: told as night falls; at the end, the end screen tells it)
    if (view.step === 'hidden' || view.status === 'finished') this.news.element.hidden = true;
    renderIfChanged(this.slots.end, [language(), view.status, view.outcome, room.timeline.length], () =>
      view.outcome ? endScreen(room, view) : [],
    );
    const ending = view.status === 'finished' && !this.ended;
    this.ended = view.status === 'finished';
    if (ending) window.scrollTo(0, 0); // the result first (the page was wherever the game left it)
    // redrawn only when what they show changed (a redraw would close an open <select>)
    // (and when the connection comes or goes: the ballot says whether a choice can go now)
    renderIfChanged(this.slots.decision, [language(), view, this.decisions.version, room.connection, room.queue.size], () => this.decisionOrInfo(view));
    renderIfChanged(this.slots.host, [language(), view.step, view.status, room.timer?.paused ?? null, Boolean(room.timer), room.endingDiscussion, room.lobby?.seats?.map((s) => [s.away, s.stand_in])], () => this.hostTools(view));
    renderIfChanged(this.slots.claims, [language(), you?.claims, view.players, this.claims.version], () =>
      you ? this.claims.element(view) ?? [] : [],
    );
    this.chat.update();
    this.table.draw(`🏛 ${t('phone.table')}`, [language(), view], () => [
      trackers(view),
      presidentInfo(view),
      projectInfo(view),
      votedCount(view),
      playersList(view, room.timeline),
    ]);
    this.timeline.draw(`📜 ${t('timeline.title')}`, [language(), room.timeline.length, room.notices.length], () => timelineList(room.story()));
    this.nightfall.update(room);
    this.showQuestion(view);
  }

  /**
   * A new decision is this player's: if its question is out of sight (the page was
   * scrolled down for the last one, it is under the sticky bar, or below the screen's
   * foot, say under the role card and the news at 360x640), bring it to the top,
   * under the bar, so the buttons never show without what they answer. Left alone when
   * it can be read already; the same on every phone asked.
   */
  showQuestion(view) {
    const choice = view.you?.choices?.[0];
    const key = choice ? `${view.year}:${view.step}:${choice.action}` : null;
    if (key === this.questionShown) return;
    this.questionShown = key;
    const prompt = key && document.getElementById('choice-prompt');
    if (!prompt) return;
    const top = byTestId('status-bar').getBoundingClientRect().bottom;
    const where = prompt.getBoundingClientRect();
    // (with the note that the last step's pick did not count above it: from the note)
    const from = byTestId('missed-note')?.getBoundingClientRect().top ?? where.top;
    const bar = document.querySelector('.confirm-bar')?.getBoundingClientRect().top ?? innerHeight;
    const bottom = Math.min(bar, innerHeight); // (by day Confirm follows the options, below)
    if (from < top || where.bottom > bottom) window.scrollBy(0, from - top - 8);
  }

  /**
   * A short buzz (where phones can) and a mark in the tab's title when a new decision is
   * this player's. In the Hidden Phase every active player buzzes at once.
   */
  nudge(view) {
    const turn = view.you?.to_act ? `${view.year}:${view.step}` : null;
    // (only after a first tap: browsers refuse, and complain, before any)
    if (turn && turn !== this.turn && navigator.userActivation?.hasBeenActive) navigator.vibrate?.(120);
    this.turn = turn;
    document.title = `${turn ? '● ' : ''}${view.step ? stepTitle(view.step) : t('step.over')} · ${t('app.name')}`;
  }

  /**
   * The choice panel, or what this player is waiting for. In the discussion every active
   * player has the same closed "private" fold: the Ombudsperson's Witness, when
   * there is one, sits inside it, so no phone stands out from across the room.
   */
  decisionOrInfo(view) {
    // (the last step's pick that did not count, if so, is said first: missedNote)
    return [this.decisions.missedNote(), this.decisionOrWaiting(view)];
  }

  decisionOrWaiting(view) {
    const panel = this.decisions.panel(view);
    if (view.step === 'discussion' && view.you?.status === 'active') {
      const testified = view.you.testified; // announced when the discussion closes)
      this.private.draw(`🔒 ${t('discussion.private')}`, [language(), view, this.decisions.version], () =>
        panel ??
        (testified
          ? h('p', { testid: 'testified', class: 'info', text: t('discussion.testified', { name: testified }) })
          : h('p', { class: 'hint', text: t('discussion.nothing_private') })),
      );
      return this.private.element;
    }
    if (panel || view.status === 'finished') return panel ?? [];
    const you = view.you;
    if (you && you.status !== 'active') {
      // (in the discussion too: the bar's "talk it over" is the table's, not a jailed player's)
      return h('p', { testid: 'sitting-out', class: 'info', data: { status: you.status }, text: t(`phone.${you.status}`, { year: view.players[you.seat].returns_year ?? '' }) });
    }
    if (view.step === 'discussion') return [];
    return h('p', { testid: 'waiting-for', class: 'info', data: { step: view.step ?? '' }, text: `⏳ ${whoDecides(view)}` });
  }

  /** The host's tools: the timer and closing the discussion. */
  hostTools(view) {
    if (!this.room.welcome?.host || view.status === 'finished') return [];
    return h(
      'section',
      { class: 'host-tools', 'aria-label': t('host.tools') },
      h('h2', { text: `🎙 ${t('host.tools')}` }),
      hostControls(this.room, view),
    );
  }
}

/** Who this phone is: a spectator, or its seat (and the host's token); none yet: join first. */
function helloFor(tokens, code) {
  if (spectating) return { spectate: true };
  if (!tokens.token && !tokens.host_token) {
    location.replace(`/?room=${encodeURIComponent(code)}`); // no seat here yet: join first
    return null;
  }
  return { token: tokens.token ?? null, host_token: tokens.host_token ?? null };
}

runPage('play', helloFor, Phone);
