/**
 * What every page shares: the language picker, the connection light, the error line,
 * and the room's live state fed by the WebSocket.
 *
 * A `RoomState` connects a page to its room and keeps, for its renderer, the room's
 * lobby (seats, settings, status), the latest view state, the whole timeline (a view
 * gives it all, an update only the new entries), the timer and the chat.
 */

import { byId, h, roomFromUrl, setNames } from './dom.js';
import { LANGUAGES, bindLanguageSelect, loadLanguage, t, translateStatic } from './i18n.js';
import { Link, receiveTokens, saveTokens } from './net.js';
import { moveOn } from './rematch.js';
import { errorText } from './words.js';

let errorTimer = null;

/** Show a message in the page's `error` line (cleared after a while). */
export function showError(message) {
  const el = byId('error');
  if (!el) return;
  el.textContent = message;
  el.hidden = false;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => {
    el.hidden = true;
  }, 8000);
}

/** Hide the error line (what it said is out of date: a later request went through). */
export function clearError() {
  const el = byId('error');
  if (el) el.hidden = true;
}

/**
 * Keep the tokens another worker handed over for the page's room (`receiveTokens`), load
 * the catalog, draw the page's top bar (title, language picker, connection light, error
 * line) into its `<header>`, and translate the static text.
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
  document.querySelector('header').replaceChildren(
    h('a', { class: 'brand', href: '/', 'data-i18n': 'app.name' }),
    h(
      'div',
      { class: 'top-tools' },
      h('span', { testid: 'connection', class: 'connection', role: 'status', data: { state: 'closed' }, hidden: kind === 'lobby' }),
      h('label', { class: 'sr-only', for: 'lang-select', 'data-i18n': 'lang.label' }),
      select,
    ),
    h('p', { testid: 'error', class: 'error', role: 'alert', hidden: true }),
  );
  translateStatic();
  bindLanguageSelect(select, kind === 'lobby' ? 'play' : kind, () => {
    setConnection(byId('connection').dataset.state);
    redraw();
  });
}

/**
 * The page's room code, or null after telling the user that the page needs one (the
 * lobby is where rooms are made and joined).
 */
export function requireRoom() {
  const code = roomFromUrl();
  if (!code) {
    byId('app').replaceChildren(
      h('p', { class: 'info', text: t('phone.no_room') }),
      h('a', { class: 'button', href: '/', text: t('phone.to_lobby') }),
    );
  }
  return code;
}

/** Each language named in itself. */
const LANGUAGE_NAMES = { en: 'English', fil: 'Filipino' };

function setConnection(state) {
  const el = byId('connection');
  el.dataset.state = state;
  el.textContent = state === 'open' ? `● ${t('connection.open')}` : `○ ${t('connection.closed')}`;
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
    this.link = new Link(
      { room: this.code, ...hello },
      {
        onMessage: (message) => this.receive(message),
        onState: (state) => setConnection(state),
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
    if (error.code === 'bad_token') saveTokens(this.code, { token: null });
    byId('app').replaceChildren(
      h('p', { class: 'info', role: 'alert', text: `⚠ ${errorText(error)}` }),
      h('a', { class: 'button', href: `/?room=${encodeURIComponent(this.code)}`, text: t('phone.to_lobby') }),
    );
  }

  connect() {
    setConnection('closed');
    this.link.connect();
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
        if (message.room.next) moveOn(this.code, message.room.next); // the table plays again
        break;
      case 'view':
        this.view = message.state;
        this.timeline = [...message.timeline];
        this.fresh = message.timeline;
        this.timer = message.timer;
        break;
      case 'update':
        this.view = message.state;
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
