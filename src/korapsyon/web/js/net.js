/**
 * Talking to the server: the lobby's HTTP API and the game's WebSocket (docs/PROTOCOL.md)
 * with reconnection (the tokens they carry are kept by tokens.js).
 *
 * A `Link` says `hello` on every (re)connection, so a reload or a lost network comes
 * back to the same seat; a heartbeat finds a socket that died without a word (a phone
 * that slept), and the page coming back into view or the network coming back reconnects
 * at once. `act`, `chat` and `timer` return promises settled by the server's `ack` or
 * `error` with the same id. `serverNow()` is the server's clock,
 * corrected for skew from the `now` of each message.
 *
 * the server pads every player frame and, in the Hidden Phase, sends `cover` frames
 * (dropped here, unseen by the pages) so that a phone's traffic does not tell its role; for
 * the same reason every `act` and `chat` leaves padded with spaces to a multiple of ACT_BYTES.
 */

/**
 * An HTTP error from the lobby API, with the server's code and message (and, for
 * `elsewhere`, `url`: the same request at the worker that serves the room).
 */
class ApiError extends Error {
  constructor(code, message, url = null) {
    super(message);
    this.code = code;
    this.url = url;
  }
}

/**
 * How long a lobby request may go unanswered before it counts as the network's failure
 * (`network`): the host's settings changes go one at a time, so one that hangs (a phone
 * changing networks) must not hold the rest up for ever. (A game's analysis, the slowest
 * answer, takes about a second.)
 */
const API_TIMEOUT_MS = 20_000;

/** Call the lobby API: JSON in, JSON out; `hostToken` authenticates the host. */
export async function api(method, path, body, hostToken) {
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (hostToken) headers.authorization = `Bearer ${hostToken}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      // (a browser without AbortSignal.timeout, iOS 15 say, waits as before: the rest works)
      signal: typeof AbortSignal.timeout === 'function' ? AbortSignal.timeout(API_TIMEOUT_MS) : undefined,
    });
  } catch (exc) {
    throw new ApiError('network', exc.message);
  }
  let data;
  try {
    data = await response.json();
  } catch (exc) {
    // An answer that cannot be read was lost on the way (a page leaving as it came, a
    // connection cut mid-body): a failure, never an empty success its caller would take
    // for the data. A refusal's body may be anything: its status says enough.
    if (response.ok) throw new ApiError('network', exc.message);
    data = {};
  }
  if (!response.ok) {
    const error = data.error || {};
    const code = error.code || String(response.status);
    throw new ApiError(code, error.message || response.statusText, error.url);
  }
  return data;
}

/** The protocol this page speaks (docs/PROTOCOL.md): a server that speaks another refuses
 * the hello with `protocol` (the page is older than the server: reload it). */
const PROTOCOL = 4;

/** The close code of a seat's connection that a newer one (another tab or phone) replaced. */
const REPLACED_CLOSE = 4001;

/**
 * The heartbeat, in ms: a `ping` every `ping_ms` while connected; a socket that brings no
 * `pong` within `pong_ms` (nor a `welcome` within `ping_ms + pong_ms` of opening) is taken
 * for dead - a phone that slept, a Wi-Fi that changed - closed, and a new one opened. A test
 * may set its own in localStorage, `korapsyon:heartbeat` = `{"ping_ms": n, "pong_ms": n}`
 * (docs/CLIENT.md), so that nothing waits on the real clock.
 */
const HEARTBEAT = { ping_ms: 10000, pong_ms: 5000 };

function heartbeat() {
  try {
    const kept = JSON.parse(localStorage.getItem('korapsyon:heartbeat')) || {};
    const ms = (key) => (Number.isFinite(kept[key]) && kept[key] > 0 ? kept[key] : HEARTBEAT[key]);
    return { ping_ms: ms('ping_ms'), pong_ms: ms('pong_ms') };
  } catch {
    return { ...HEARTBEAT };
  }
}

/** Every `act` and `chat` is sent as a multiple of this many bytes (JSON, then spaces). */
const ACT_BYTES = 512;
const encoder = new TextEncoder();

/** `text` followed by spaces up to a multiple of ACT_BYTES bytes (UTF-8). */
function padAct(text) {
  const length = encoder.encode(text).length;
  return text + ' '.repeat(Math.ceil(length / ACT_BYTES) * ACT_BYTES - length);
}

/**
 * The game's WebSocket for one page.
 *
 * Its `state`: `connecting` (a socket is opening, or has said hello), `welcomed` (the
 * server answered the hello: the lobby, the view and the chat follow), `checking` (the page
 * came back into view: a ping asks whether the socket still lives) and `closed` (no socket;
 * a new one is due). A page shows "connected" only once its new view has arrived (the
 * RoomState). It connects again at once when the page becomes visible with a dead socket,
 * or when the network comes back (`online`), and drops its socket when the network goes
 * (`offline`): the page says so at once instead of showing a stale screen as live.
 */
export class Link {
  /**
   * `hello`: the hello message's fields besides `type` (room, token, host_token,
   * spectate). `onMessage(message)` gets every message from the server;
   * `onState(state)` each change of `state`; `onFatal(error)` a refused hello;
   * `onReplaced()` this seat connected again from another screen, which now has it: this
   * link stops (no reconnecting, which would take the seat back and start a fight) until
   * `resume()`.
   */
  constructor(hello, { onMessage, onState, onFatal, onReplaced }) {
    this.hello = hello;
    this.onMessage = onMessage;
    this.onState = onState;
    this.onFatal = onFatal;
    this.onReplaced = onReplaced;
    this.nextId = 1;
    this.pending = new Map(); // id -> {resolve, reject}
    this.offset = 0; // server clock minus ours, in seconds
    this.delay = 500; // the next reconnection's delay, in ms
    this.stopped = false;
    this.started = false; // connect() was called (the page is ready)
    this.state = 'closed';
    this.ws = null;
    this.beat = heartbeat();
    this.pinger = null; // the heartbeat's interval
    this.watchdog = null; // drops the socket unless a pong (or the welcome) comes first
    this.retry = null; // the next reconnection's timer
    addEventListener('online', () => this.online());
    addEventListener('offline', () => this.drop());
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') this.check();
    });
    addEventListener('pageshow', (event) => {
      if (event.persisted) this.check(); // back from the browser's page cache
    });
  }

  setState(state) {
    if (state === this.state) return;
    this.state = state;
    this.onState(state);
  }

  connect() {
    this.started = true;
    clearTimeout(this.retry);
    this.retry = null;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${scheme}://${location.host}/ws`);
    this.ws = ws;
    this.setState('connecting');
    this.expect(this.beat.ping_ms + this.beat.pong_ms); // a welcome, or a new socket
    ws.addEventListener('open', () => {
      if (ws === this.ws) ws.send(JSON.stringify({ type: 'hello', protocol: PROTOCOL, ...this.hello }));
    });
    ws.addEventListener('message', (event) => {
      if (ws === this.ws) this.receive(JSON.parse(event.data)); // (never a dropped socket's)
    });
    ws.addEventListener('close', (event) => this.closed(ws, event.code));
  }

  /** Connect again after `onReplaced`: this screen takes the seat back. */
  resume() {
    this.stopped = false;
    this.delay = 500;
    this.connect();
  }

  replaced() {
    if (this.stopped) return;
    this.stopped = true;
    this.onReplaced();
  }

  receive(message) {
    if (message.type === 'cover') return; // nothing for us, sent so that all phones look alike
    if (typeof message.now === 'number') this.offset = message.now - Date.now() / 1000;
    if (message.type === 'welcome') {
      this.delay = 500;
      this.unwatch();
      this.setState('welcomed');
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.ping(), this.beat.ping_ms);
    } else if (['ack', 'pong'].includes(message.type) || (message.type === 'error' && message.id !== null)) {
      this.settle(message);
    } else if (message.type === 'error' && message.code === 'replaced') {
      this.replaced();
    } else if (message.type === 'error' && message.fatal) { // reconnecting cannot help
      this.stopped = true;
      this.onFatal(message);
    }
    this.onMessage(message);
    // An update carries the acks of our actions it is the first to show: settle them
    // once the update has been applied.
    if (message.type === 'update' && message.acks) message.acks.forEach((ack) => this.settle(ack));
  }

  /** Resolve (ack, pong) or reject (error) the request with the answer's id. */
  settle(answer) {
    const waiting = this.pending.get(answer.id);
    this.pending.delete(answer.id);
    if (waiting && answer.type !== 'error') waiting.resolve(answer);
    else if (waiting) waiting.reject(Object.assign(new Error(answer.message), { code: answer.code }));
  }

  /** Drop the socket unless `unwatch()` is called within `ms`. */
  expect(ms) {
    clearTimeout(this.watchdog);
    const ws = this.ws;
    this.watchdog = setTimeout(() => {
      this.watchdog = null;
      if (ws === this.ws) this.drop(0); // (at once: the network may well be fine)
    }, ms);
  }

  unwatch() {
    clearTimeout(this.watchdog);
    this.watchdog = null;
  }

  /** One heartbeat: a ping that must bring its pong in time. */
  ping() {
    if (this.watchdog || this.state === 'connecting' || this.state === 'closed') return; // one at a time
    const ws = this.ws;
    this.expect(this.beat.pong_ms);
    this.send({ type: 'ping' }).then(
      () => {
        if (ws !== this.ws) return;
        this.unwatch();
        if (this.state === 'checking') this.setState('welcomed');
      },
      () => {}, // (a lost socket is told by `lost`)
    );
  }

  /**
   * The page is in view again (a phone woke up, a tab came back): a socket that was closed
   * meanwhile is opened now, without waiting for the backoff; one that looks open may be
   * dead, so it is asked at once (`checking` until its pong).
   */
  check() {
    if (this.stopped || !this.started) return;
    if (this.state === 'closed') this.connectSoon(0);
    else if (this.state === 'welcomed' || this.state === 'checking') {
      this.setState('checking');
      this.ping();
    }
  }

  /** The network is back: whatever socket there was went through the old one. */
  online() {
    if (this.stopped || !this.started) return;
    if (this.ws) this.drop(0);
    else this.connectSoon(0);
  }

  /** Take the socket for dead (no pong, or no network): close it and connect again. */
  drop(delay) {
    const ws = this.ws;
    if (!ws) return;
    this.ws = null; // its late events are ignored from now on
    try {
      ws.close();
    } catch {
      // (closing a socket that never opened)
    }
    this.lost(delay);
  }

  closed(ws, code) {
    if (ws !== this.ws) return;
    this.ws = null;
    if (code === REPLACED_CLOSE) this.replaced(); // (the error before it may be lost)
    this.lost();
  }

  /** No socket any more: say so, fail what waited for an answer, and connect again. */
  lost(delay = this.delay) {
    clearInterval(this.pinger);
    this.pinger = null;
    this.unwatch();
    this.setState('closed');
    for (const waiting of this.pending.values()) {
      // (`sent`: it left, and may have arrived)
      waiting.reject(Object.assign(new Error('connection lost'), { code: 'closed', sent: true }));
    }
    this.pending.clear();
    if (this.stopped) return;
    this.connectSoon(delay);
    this.delay = Math.min(this.delay * 2, 8000);
  }

  /** Connect in `delay` ms; not while the browser knows it has no network (`online` will). */
  connectSoon(delay) {
    clearTimeout(this.retry);
    this.retry = null;
    if (navigator.onLine === false) return;
    this.retry = setTimeout(() => this.connect(), delay);
  }

  /** Send a message with a fresh id; resolves on its ack (or pong), rejects on its error. */
  send(message) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject(Object.assign(new Error('not connected'), { code: 'closed' }));
        return;
      }
      this.pending.set(id, { resolve, reject });
      const text = JSON.stringify({ ...message, id });
      this.ws.send(message.type === 'act' || message.type === 'chat' ? padAct(text) : text);
    });
  }

  /** One action (its game-record form). */
  act(action) {
    return this.send({ type: 'act', action });
  }

  chat(channel, text) {
    return this.send({ type: 'chat', channel, text });
  }

  /** Host or moderator: pause, resume, extend (by `seconds`) or end the step. */
  timer(op, seconds) {
    return this.send(seconds ? { type: 'timer', op, seconds } : { type: 'timer', op });
  }

  /** The server's clock now, in seconds. */
  serverNow() {
    return Date.now() / 1000 + this.offset;
  }
}
