/**
 * The lobby page (`/`): create a room (with a seat for the host, or board-only, with or
 * without a human moderator, R-71) or join one by its code. `/?room=CODE` (the join
 * link and the QR code) arrives with the code filled in. Tokens are kept for the room
 * (docs/CLIENT.md) and the page moves on to the phone, the board or the grimoire.
 *
 * With several workers, a room lives on its own worker's origin, where its tokens must be
 * kept: a room created here but served there is entered with its tokens handed over in
 * the URL fragment (`handOver`), and a room joined here but served there is joined on
 * that worker's lobby, the name typed handed over as `#join=NAME` (filled in there; the
 * user joins with one more click).
 *
 * What goes wrong is said next to what caused it: a name or code missing under its box
 * (`name-error`, `room-code` is in the join form: `join-error`), a refused join in the join
 * form, a room that could not be made under the create buttons (`create-error`).
 */

import { byTestId, roomFromUrl } from './dom.js';
import { t } from './i18n.js';
import { api } from './net.js';
import { forgetLastRoom, handOver, lastRoom, loadTokens, saveTokens, takeFragment } from './tokens.js';
import { startPage } from './shell.js';
import { errorText } from './words.js';

const NAME_KEY = 'korapsyon:name';

/** Say `message` in the error line `testid` (next to its control), in sight; null: clear. */
function tell(testid, message) {
  const el = byTestId(testid);
  el.textContent = message ? `⚠ ${message}` : '';
  el.hidden = !message;
  if (message) el.scrollIntoView({ block: 'nearest' });
}

/** Clear every error line: a new attempt. */
function untell() {
  for (const testid of ['name-error', 'join-error', 'create-error']) tell(testid, null);
}

function nameTyped() {
  const name = byTestId('name-input').value.trim();
  if (!name) {
    byTestId('name-input').focus();
    tell('name-error', t('lobby.need_name'));
    return null;
  }
  localStorage.setItem(NAME_KEY, name);
  return name;
}

async function create(withSeat) {
  untell();
  const name = withSeat ? nameTyped() : null;
  if (withSeat && !name) return;
  const human = byTestId('moderator-mode').checked;
  const body = { settings: human ? { moderator: 'human' } : {} };
  if (name) body.name = name;
  try {
    const created = await api('POST', '/api/rooms', body);
    const tokens = {
      host_token: created.host_token,
      moderator_token: created.moderator_token,
      token: created.seat ? created.seat.token : null,
      name: created.seat ? created.seat.name : null,
    };
    const page = withSeat ? 'play' : human ? 'moderator' : 'board';
    const path = `/${page}?room=${created.code}`;
    const owner = await servedElsewhere(created.code, created.join_url);
    if (owner) {
      location.assign(handOver(`${owner}${path}`, tokens)); // kept there, not here
      return;
    }
    saveTokens(created.code, tokens);
    location.assign(path);
  } catch (exc) {
    tell('create-error', errorText(exc));
  }
}

/**
 * The origin of the worker that serves the new room `code` if not this page's, else null.
 * Only when its `joinUrl` names another origin is this worker asked (`elsewhere` names
 * the owner): a single server behind a proxy, or listening on every interface, also names
 * an address other than the page's, and then the room is here.
 */
async function servedElsewhere(code, joinUrl) {
  if (new URL(joinUrl, location.href).origin === location.origin) return null;
  try {
    await api('GET', `/api/rooms/${code}`);
    return null; // served here
  } catch (exc) {
    if (exc.code === 'elsewhere' && exc.url) return new URL(exc.url).origin;
    throw exc; // not known where: say so rather than keep the tokens where they may not work
  }
}

async function join() {
  untell();
  const code = byTestId('room-code-input').value.trim().toUpperCase();
  if (!code) {
    byTestId('room-code-input').focus();
    tell('join-error', t('lobby.need_code'));
    return;
  }
  if (loadTokens(code).token) {
    location.assign(`/play?room=${code}`); // this browser already holds a seat there
    return;
  }
  const name = nameTyped();
  if (!name) return;
  try {
    const seat = await api('POST', `/api/rooms/${code}/seats`, { name });
    saveTokens(code, { token: seat.token, name: seat.name });
    location.assign(`/play?room=${code}`);
  } catch (exc) {
    if (exc.code === 'elsewhere' && exc.url && new URL(exc.url).origin !== location.origin) {
      joinThere(new URL(exc.url).origin, code, name);
    } else if (exc.code === 'started') tell('join-error', t('lobby.started', { code }));
    else tell('join-error', errorText(exc));
  }
}

/** Join room `code` on the lobby of the worker at `origin` (it serves the room), as `name`. */
function joinThere(origin, code, name) {
  location.assign(`${origin}/?room=${encodeURIComponent(code)}#join=${encodeURIComponent(name)}`);
}

function spectate() {
  untell();
  const code = byTestId('room-code-input').value.trim().toUpperCase();
  if (code) location.assign(`/play?room=${code}&spectate=1`);
  else {
    byTestId('room-code-input').focus();
    tell('join-error', t('lobby.need_code'));
  }
}

/**
 * A way back to the game this browser last held a place in, while it is still on (the
 * phone's Back button, a closed tab, a lock screen that dropped the page): `rejoin`, with
 * the room's code and the seat's name. Nothing when that game is over (and not followed
 * by a rematch, which the game's page moves on to) or the room is gone.
 */
async function offerReturn() {
  const code = lastRoom();
  if (!code) return;
  let room;
  try {
    room = await api('GET', `/api/rooms/${code}`);
  } catch (exc) {
    if (exc.code === 'no_room') forgetLastRoom(); // gone (not asked for again)
    return; // or served by another worker: the code box is still there
  }
  if (room.status === 'finished' && !room.next) return;
  const tokens = loadTokens(code);
  const page = tokens.token ? 'play' : tokens.moderator_token ? 'moderator' : 'board';
  const button = byTestId('rejoin-button');
  wordRejoin = () => {
    button.textContent = tokens.name ? t('lobby.rejoin_as', { code, name: tokens.name }) : t('lobby.rejoin', { code });
  };
  wordRejoin();
  button.onclick = () => location.assign(`/${page}?room=${encodeURIComponent(code)}`);
  byTestId('rejoin').hidden = false;
}

/** Words the way back again (in the language just chosen); null while there is none. */
let wordRejoin = null;

async function main() {
  await startPage('lobby', () => wordRejoin?.());
  const nameInput = byTestId('name-input');
  if (!nameInput.value) nameInput.value = localStorage.getItem(NAME_KEY) || ''; // (not over a name typed meanwhile)
  const code = roomFromUrl();
  if (code) {
    byTestId('room-code-input').value = code;
    byTestId('join-section').classList.add('highlight');
    byTestId('name-input').focus();
  }
  const handed = takeFragment('join'); // a name typed on another worker's lobby (joinThere)
  byTestId('create-room').addEventListener('click', () => create(true));
  byTestId('create-room-board').addEventListener('click', () => create(false));
  byTestId('join-section').addEventListener('submit', (event) => {
    event.preventDefault();
    join();
  });
  byTestId('spectate').addEventListener('click', spectate);
  // the buttons come disabled in the page: a tap before this point did nothing (a join
  // even reloaded the page, the form's own submit)
  for (const id of ['create-room', 'create-room-board', 'join-room', 'spectate']) byTestId(id).disabled = false;
  if (!code) await offerReturn();
  if (code && handed) {
    // the name typed on another worker's lobby: filled in, but joining stays the user's
    // click (a link from anywhere must not take a seat in this browser's name)
    byTestId('name-input').value = handed;
    byTestId('join-room').focus();
  }
}

main();
