/**
 * What every page shares: the top (the name and the language picker), the status bar
 * (bar.js: the connection, who the table waits for, the error line), and the room's live
 * state fed by the WebSocket.
 *
 * A `RoomState` connects a page to its room and keeps, for its renderer, the room's
 * lobby (seats, settings, status), the latest view state, the whole timeline (a view
 * gives it all, an update only the new entries), the timer and the chat. It says
 * "connected" only once the new connection's view has arrived (never over a stale
 * screen), keeps a decision confirmed while not connected and sends it once when the
 * connection is back (`act`), and keeps the screen awake during a game.
 */

import { byTestId, h, roomFromUrl, setNames } from './dom.js';
import { LANGUAGES, bindLanguageSelect, loadLanguage, t, translateStatic } from './i18n.js';
import { Link } from './net.js';
import { loadTokens, receiveTokens, saveTokens } from './tokens.js';
import { Awake, buildBar, clearError, setConnection, showError } from './bar.js';
import { lastGame, moveOn } from './rematch.js';
import { errorText } from './words.js';

export { clearError, showError };

/**
 * Keep the tokens another worker handed over for the page's room (`receiveTokens`), load
 * the catalog, draw the page's top (the name, the language picker) into its `<header>`
 * and the status bar under it (and, on a page that moved on after a rematch, the way back
 * to the game before: rematch.js `lastGame`), and translate the static text.
 * `redraw()` runs after the language changes.
 */
export async function startPage(kind, redraw) {
  receiveTokens(roomFromUrl());
  await loadLanguage(kind === 'lobby' ? 'play' : kind);
  const select = h(
    'select',
    { testid: 'lang-select', id: 'lang-select', 'data-i18n-label': 'lang.label' },
    LANGUAGES.map((lang) => h('option', { value: lang, text: LANGUAGE_NAMES[lang] })),
  );
  const header = document.querySelector('header');
  header.replaceChildren(
    h('a', { class: 'brand', href: '/', 'data-i18n': 'app.name' }),
    h(
      'div',
      { class: 'top-tools' },
      h('label', { class: 'sr-only', for: 'lang-select', 'data-i18n': 'lang.label' }),
      select,
    ),
  );
  buildBar(kind, header);
  const back = kind === 'lobby' ? null : lastGame(); // (after a rematch: the game before, seen first)
  if (back && kind === 'play') document.querySelector('main').before(back);
  else if (back) header.querySelector('.top-tools').prepend(back);
  translateStatic();
  bindLanguageSelect(select, kind === 'lobby' ? 'play' : kind, () => {
    const connection = byTestId('connection');
    setConnection(connection.dataset.state, connection.dataset.first === 'true');
    redraw();
  });
}

/**
 * Start a room page (board, phone, grimoire) the one way: its top and bar, its room code,
 * its hello from the tokens this browser keeps for the room, then the page itself and its
 * connection. `helloFor(tokens, code)` says who the page is, or null when it has gone
 * elsewhere; `Page` is constructed with `(room, tokens)` and redrawn with `draw(why)` on
 * every message (`why`: its type, 'connection' or 'language').
 */
export async function runPage(kind, helloFor, Page) {
  let page = null;
  await startPage(kind, () => page?.draw('language'));
  const code = requireRoom();
  if (!code) return;
  const tokens = loadTokens(code);
  const hello = helloFor(tokens, code);
  if (!hello) return;
  const room = new RoomState(hello, (why) => page.draw(why));
  page = new Page(room, tokens);
  room.connect();
}

/**
 * The page's room code, or null after telling the user that the page needs one (the
 * lobby is where rooms are made and joined).
 */
export function requireRoom() {
  const code = roomFromUrl();
  if (!code) {
    byTestId('app').replaceChildren(
      h('p', { class: 'info', text: t('phone.no_room') }),
      h('a', { class: 'button', href: '/', text: t('phone.to_lobby') }),
    );
  }
  return code;
}

/** Each language named in itself. */
const LANGUAGE_NAMES = { en: 'English', fil: 'Filipino' };

/** An action without the fields that do not say what was chosen (to compare two). */
function choiceOf(action) {
  const { auto, player, ...rest } = action || {};
  return JSON.stringify(Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The live room of a page: call `connect()` once the page is ready. */
export class RoomState {
  /** `hello`: who this page is (token, host_token, spectate); `render()` redraws. */
  constructor(hello, render) {
    this.code = roomFromUrl();
    this.render = render;
    this.welcome = null; // {role, seat, host}
    this.lobby = null; // the room: seats, settings, status
    this.view = null; // the latest view state
    this.timeline = [];
    this.fresh = []; // the timeline entries of the latest view or update
    this.timer = null;
    this.chat = [];
    this.notices = []; // the server's notices, as timeline entries (`story`)
    this.refusals = 0; // lobby requests refused so far (the waiting room redraws on each)
    this.lobbyErrors = {}; // the waiting room's refusals, by the control refused (waiting.js)
    this.settingsDraft = null; // the host's settings as last sent, while any is unanswered (waiting.js)
    this.settingsSending = 0; // the host's settings changes made and not answered yet
    this.settingsSent = Promise.resolve(); // the last of them: the next one goes after it
    this.removing = null; // the person whose removal the host is asked to confirm (waiting.js)
    this.settingsFailed = 0; // the host's settings changes refused or lost so far
    this.starting = false; // the host tapped Start: it waits for the changes before it
    this.connection = 'closed'; // what the bar says: open, syncing or closed
    this.synced = false; // the current connection's view (or waiting room) has arrived
    this.everOpen = false;
    this.queue = new Map(); // decision key -> {action, resolve}: confirmed while not connected
    this.awake = new Awake();
    this.link = new Link(
      { room: this.code, ...hello },
      {
        onMessage: (message) => this.receive(message),
        onState: (state) => {
          if (state === 'closed' || state === 'connecting') this.synced = false;
          if (this.showConnection()) this.render('connection');
        },
        onFatal: (error) => this.refused(error),
        onReplaced: () => this.replaced(),
      },
    );
  }

  /**
   * This seat was opened on another screen (a second tab, the QR code scanned again),
   * which now has it: say so over the page, with one button to take it back here.
   */
  replaced() {
    const notice = h(
      'div',
      { testid: 'replaced', class: 'overlay', role: 'alertdialog', 'aria-labelledby': 'replaced-text' },
      h(
        'div',
        { class: 'overlay-box' },
        h('p', { id: 'replaced-text', text: `📱 ${t('replaced.text')}` }),
        h('button', {
          type: 'button',
          testid: 'take-back',
          class: 'primary',
          text: t('replaced.take_back'),
          onclick: () => {
            notice.remove();
            this.link.resume();
          },
        }),
      ),
    );
    document.body.append(notice);
    notice.querySelector('button').focus();
  }

  /**
   * The hello was refused (a removed seat, a wrong token, no such room): say so where the
   * page was, forget a seat token that no longer opens a seat, and point to the lobby.
   */
  refused(error) {
    showError(errorText(error));
    byTestId('connection').hidden = true; // (not reconnecting: the page says why, and where to go)
    if (error.code === 'bad_token') saveTokens(this.code, { token: null });
    byTestId('app').replaceChildren(
      h('p', { class: 'info', role: 'alert', text: `⚠ ${errorText(error)}` }),
      h('a', { class: 'button', href: `/?room=${encodeURIComponent(this.code)}`, text: t('phone.to_lobby') }),
    );
  }

  connect() {
    setConnection('closed', true);
    this.link.connect();
  }

  /**
   * Show the connection in the bar: `open` only once this connection's view (or the
   * waiting room) has arrived, so that "connected" never stands over a stale screen.
   * Returns whether it changed.
   */
  showConnection() {
    const state = this.link.state;
    const shown = state === 'welcomed' && this.synced ? 'open' : state === 'welcomed' || state === 'checking' ? 'syncing' : 'closed';
    if (shown === this.connection) return false;
    this.connection = shown;
    this.everOpen ||= shown === 'open';
    setConnection(shown, !this.everOpen);
    if (shown === 'open') this.flush(); // (a new view, or the same socket found alive)
    return true;
  }

  receive(message) {
    switch (message.type) {
      case 'welcome':
        this.welcome = message;
        this.chat = []; // the server sends the history again
        this.notices = [];
        break;
      case 'lobby':
        this.lobby = message.room;
        setNames(message.room.seats.map((seat) => seat.name));
        if (message.room.status === 'lobby') this.synced = true; // (no view to come)
        if (message.room.next) moveOn(this.code, message.room.next); // the table plays again
        break;
      case 'view':
        this.view = message.state;
        this.timeline = [...message.timeline];
        this.fresh = message.timeline;
        this.timer = message.timer;
        this.synced = true;
        break;
      case 'update': // only the members that changed (protocol 4)
        this.view = { ...this.view, ...message.state };
        this.timeline.push(...message.timeline);
        this.fresh = message.timeline;
        this.timer = message.timer;
        break;
      case 'chat_posted':
        this.chat.push(message);
        if (message.channel === 'notice') {
          const entry = { year: message.year, kind: 'notice', params: JSON.parse(message.text) };
          this.notices.push(entry);
          this.fresh = [entry];
        }
        break;
      case 'error':
        if (message.id === null && message.code !== 'replaced') showError(errorText(message));
        return;
      default:
        return;
    }
    this.showConnection();
    this.awake.want(Boolean(this.view) && this.view.status !== 'finished');
    this.render(message.type);
  }

  /** The timeline with the server's notices, each at the end of its Year's entries. */
  story() {
    if (!this.notices.length) return this.timeline;
    const out = [];
    let next = 0;
    for (const entry of this.timeline) {
      while (next < this.notices.length && this.notices[next].year < entry.year) out.push(this.notices[next++]);
      out.push(entry);
    }
    return out.concat(this.notices.slice(next));
  }

  /**
   * Send a decision's `act` (`key`: "year:step:action", the decision it answers). Not
   * connected, it is kept - one per decision, the latest - and sent once the connection is
   * back, if that decision is still open (else dropped, and the player told); an act whose
   * connection was lost before its answer is kept the same way, and not sent again if the
   * new view shows it arrived. Resolves to `{ok: true}` once acknowledged, `{error}` (the
   * refusal, in words) or `{dropped: true}`, or `{replaced: true}` when a newer choice for
   * the same decision took its place in the queue.
   */
  act(key, action) {
    return new Promise((resolve) => {
      const entry = { key, action, resolve };
      if (this.connection === 'open') this.sendNow(entry);
      else this.keep(entry);
    });
  }

  /** Whether a decision's act waits for the connection (docs/CLIENT.md: `queued`). */
  queued(key) {
    return this.queue.has(key);
  }

  keep(entry) {
    this.queue.get(entry.key)?.resolve({ replaced: true });
    this.queue.set(entry.key, entry);
    this.render('queue');
  }

  async sendNow(entry) {
    try {
      await this.link.act(entry.action);
      entry.resolve({ ok: true });
    } catch (exc) {
      if (exc.code !== 'closed') entry.resolve({ error: errorText(exc) });
      else if (this.queue.has(entry.key)) entry.resolve({ replaced: true }); // a newer choice waits
      else {
        entry.sent ||= Boolean(exc.sent);
        this.keep(entry); // never sent, or lost on the way
      }
    }
  }

  /** Connected again, the view current: send what was kept, once, if still wanted. */
  flush() {
    const view = this.view;
    const you = view?.you;
    for (const entry of [...this.queue.values()]) {
      this.queue.delete(entry.key);
      const open = you && you.choices.some((c) => `${view.year}:${view.step}:${c.action}` === entry.key);
      if (!open) {
        // (one that left before the connection was lost may have counted: the step is over)
        showError(t(entry.sent ? 'queue.unknown' : 'queue.dropped'));
        entry.resolve({ dropped: true });
      } else if (you.submitted && choiceOf(you.submitted) === choiceOf(entry.action)) {
        entry.resolve({ ok: true }); // it did arrive before the connection was lost
      } else {
        this.sendNow(entry);
      }
    }
  }

  /** Run a request; show its refusal in the error line. Resolves true if accepted. */
  async attempt(promise) {
    try {
      await promise;
      clearError();
      return true;
    } catch (exc) {
      showError(errorText(exc));
      return false;
    }
  }
}
