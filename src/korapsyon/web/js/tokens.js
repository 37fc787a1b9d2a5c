/**
 * The tokens this browser keeps in `localStorage`, per room (a seat's, the host's, the
 * moderator's: docs/CLIENT.md), and the last room it was given a place in (the lobby's way
 * back to a game in progress).
 *
 * With several workers (`korapsyon serve --workers N`) a room is served from its own
 * worker's origin, and its tokens are kept there: a page that got them from another worker
 * hands them over in the URL fragment (`handOver`, `receiveTokens`).
 */

/** Tokens of a room: `{token, host_token, moderator_token, name}` (docs/CLIENT.md). */
export function loadTokens(code) {
  try {
    return JSON.parse(localStorage.getItem(`korapsyon:${code}`)) || {};
  } catch {
    return {};
  }
}

/**
 * This page's token of the room's table (a seat's, the host's or the moderator's), or
 * null: what a finished game's record and analysis are asked for with.
 */
export function tableToken(code) {
  const tokens = loadTokens(code);
  return tokens.token || tokens.host_token || tokens.moderator_token || null;
}

/** Where `lastRoom` is kept. */
const LAST_KEY = 'korapsyon:last';

/** Merge `patch` into the tokens kept for `code` (and remember it as the last room). */
export function saveTokens(code, patch) {
  localStorage.setItem(`korapsyon:${code}`, JSON.stringify({ ...loadTokens(code), ...patch }));
  localStorage.setItem(LAST_KEY, code);
}

/** The last room is gone: offer no way back to it. */
export function forgetLastRoom() {
  localStorage.removeItem(LAST_KEY);
}

/** The room this browser was last given a place in (a seat, the host's, the moderator's), or null. */
export function lastRoom() {
  const code = localStorage.getItem(LAST_KEY);
  return code && tableToken(code) ? code : null;
}

/** The tokens' fields (what a hand-off may carry). */
const TOKEN_FIELDS = ['token', 'host_token', 'moderator_token', 'name'];

/**
 * The value of `key` in this page's URL fragment (`#key=value&...`), or null; when there
 * is one, the fragment is taken out of the URL (and so out of the history and of any link
 * copied from the address bar).
 */
export function takeFragment(key) {
  const value = new URLSearchParams(location.hash.slice(1)).get(key);
  if (value !== null) history.replaceState(history.state, '', location.pathname + location.search);
  return value;
}

/**
 * `url` (a page of the worker that serves a room, `?room=CODE`) carrying `tokens` for it
 * to keep (`receiveTokens`): `localStorage` is per origin, and a URL's fragment never
 * reaches a server (docs/CLIENT.md).
 */
export function handOver(url, tokens) {
  return `${url}#tokens=${encodeURIComponent(JSON.stringify(tokens))}`;
}

/**
 * Keep the tokens handed over in this page's fragment (`handOver`) for its room `code`,
 * a room new to this browser: tokens it already keeps for the room are never replaced
 * (a link cannot take a seat away).
 */
export function receiveTokens(code) {
  const handed = takeFragment('tokens');
  const kept = code ? loadTokens(code) : {};
  if (handed === null || !code || TOKEN_FIELDS.some((key) => kept[key])) return;
  let tokens;
  try {
    tokens = JSON.parse(handed);
  } catch {
    return;
  }
  const fields = TOKEN_FIELDS.filter((key) => typeof tokens?.[key] === 'string');
  if (fields.length) saveTokens(code, Object.fromEntries(fields.map((key) => [key, tokens[key]])));
}
