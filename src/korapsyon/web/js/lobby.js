/**
 * The lobby page (`/`): create a room (with a seat for the host, or board-only, with or
 * without a human moderator, R-71) or join one by its code. `/?room=CODE` (the join
 * link and the QR code) arrives with the code filled in. Tokens are kept for the room
 * (docs/CLIENT.md) and the page moves on to the phone, the board or the grimoire.
 */

import { byId, roomFromUrl } from './dom.js';
import { t } from './i18n.js';
import { api, loadTokens, saveTokens } from './net.js';
import { showError, startPage } from './shell.js';

const NAME_KEY = 'korapsyon:name';

function nameTyped() {
  const name = byId('name-input').value.trim();
  if (!name) {
    showError(t('lobby.need_name'));
    byId('name-input').focus();
    return null;
  }
  localStorage.setItem(NAME_KEY, name);
  return name;
}

async function create(withSeat) {
  const name = withSeat ? nameTyped() : null;
  if (withSeat && !name) return;
  const human = byId('moderator-mode').checked;
  const body = { settings: human ? { moderator: 'human' } : {} };
  if (name) body.name = name;
  try {
    const created = await api('POST', '/api/rooms', body);
    saveTokens(created.code, {
      host_token: created.host_token,
      moderator_token: created.moderator_token,
      token: created.seat ? created.seat.token : null,
      name: created.seat ? created.seat.name : null,
    });
    const page = withSeat ? 'play' : human ? 'moderator' : 'board';
    location.assign(`/${page}?room=${created.code}`);
  } catch (exc) {
    showError(exc.message);
  }
}

async function join() {
  const code = byId('room-code-input').value.trim().toUpperCase();
  if (!code) {
    showError(t('lobby.need_code'));
    byId('room-code-input').focus();
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
    if (exc.code === 'started') showError(t('lobby.started', { code }));
    else showError(exc.message);
  }
}

function spectate() {
  const code = byId('room-code-input').value.trim().toUpperCase();
  if (code) location.assign(`/play?room=${code}&spectate=1`);
  else showError(t('lobby.need_code'));
}

async function main() {
  await startPage('lobby', () => {});
  byId('name-input').value = localStorage.getItem(NAME_KEY) || '';
  const code = roomFromUrl();
  if (code) {
    byId('room-code-input').value = code;
    byId('join-section').classList.add('highlight');
    byId('name-input').focus();
  }
  byId('create-room').addEventListener('click', () => create(true));
  byId('create-room-board').addEventListener('click', () => create(false));
  byId('join-section').addEventListener('submit', (event) => {
    event.preventDefault();
    join();
  });
  byId('spectate').addEventListener('click', spectate);
}

main();
