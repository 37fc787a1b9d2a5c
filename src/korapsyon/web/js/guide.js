/**
 * The guide for first-timers: a one-minute "How to play" and every role (its team, its
 * goal, what its night does, what it might say by day), in the page's language, over the
 * page. It opens from the waiting room and from under the role card; the button and the
 * guide are the same on every phone, and the guide never points at the reader's own role
 * a neighbour glancing at an open guide learns nothing).
 */

import { h, modal } from './dom.js';
import { roleTitle, t } from './i18n.js';
import { ROLES, roleBadge } from './roles.js';

/** The steps of a Year, in the order the table meets them. */
const HOWTO = ['roles', 'teams', 'night', 'day', 'talk', 'win', 'clue'];

/**
 * The button that opens the guide (`from`: "waiting", or "card": a short one beside the
 * role card, at the roles).
 */
export function guideButton(from) {
  const card = from === 'card';
  return h(
    'button',
    {
      type: 'button',
      testid: 'guide-open',
      class: card ? 'guide-open compact' : 'link-button guide-open',
      data: { from },
      'aria-label': card ? `${t('guide.short')}: ${t('guide.open')}` : null,
      onclick: (event) => openGuide(event.currentTarget, card ? 'roles' : 'howto'),
    },
    card ? [h('span', { 'aria-hidden': 'true', text: '📖' }), h('span', { text: t('guide.short') })] : `📖 ${t('guide.open')}`,
  );
}

let open = null; // the guide on the page, if any

/**
 * Show the guide over the page, at its start (`howto`) or at the roles (`roles`); closing
 * it gives the focus back to `opener`.
 */
export function openGuide(opener, at = 'howto') {
  open?.close();
  let release = () => {};
  const close = () => {
    document.removeEventListener('keydown', escape);
    release();
    open = null;
    opener?.focus?.();
  };
  const escape = (event) => {
    if (event.key === 'Escape') close();
  };
  const closeButton = (where) =>
    h('button', { type: 'button', testid: 'guide-close', class: where === 'top' ? 'small guide-close' : 'primary big', data: { where }, text: `✕ ${t('guide.close')}`, onclick: close });
  const roles = h(
    'section',
    { testid: 'guide-roles', class: 'guide-roles', 'aria-labelledby': 'guide-roles-title' },
    h('h2', { id: 'guide-roles-title', text: `🎭 ${t('guide.roles')}` }),
    ROLES.map((role) =>
      h(
        'article',
        { testid: 'guide-role', class: 'guide-role', data: { role }, 'aria-label': roleTitle(role) },
        h('h3', {}, roleBadge(role)),
        h('dl', {}, ['goal', 'night', 'day'].map((part) => [h('dt', { text: t(`guide.${part}`) }), h('dd', { text: t(`guide.${role}.${part}`) })])),
      ),
    ),
  );
  const box = h(
    'div',
    { class: 'overlay-box guide-box', tabindex: -1 },
    h('div', { class: 'guide-top' }, h('h1', { id: 'guide-title', text: `📖 ${t('guide.title')}` }), closeButton('top')),
    h(
      'section',
      { testid: 'guide-howto', class: 'guide-howto', 'aria-labelledby': 'guide-howto-title' },
      h('h2', { id: 'guide-howto-title', text: `⏱ ${t('guide.howto')}` }),
      h('ol', {}, HOWTO.map((step) => h('li', { text: t(`guide.howto.${step}`) }))),
    ),
    roles,
    closeButton('bottom'),
  );
  const dialog = h('div', { testid: 'guide', class: 'overlay guide', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'guide-title' }, box);
  release = modal(dialog);
  document.addEventListener('keydown', escape);
  open = { close };
  if (at === 'roles') roles.scrollIntoView({ block: 'start' });
  box.querySelector('button').focus({ preventScroll: true });
}
