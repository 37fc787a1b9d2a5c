/**
 * How roles and teams look: a title from the catalog, an icon and a team colour
 * (Okabe–Ito, always with an icon and text, never colour alone).
 */

import { h } from './dom.js';
import { roleTitle, t } from './i18n.js';

export const ROLES = ['good_politician', 'corrupt_politician', 'lawyer', 'ombudsperson', 'coa', 'citizen'];

export const ROLE_ICONS = {
  good_politician: '🏗',
  corrupt_politician: '💰',
  lawyer: '⚖',
  ombudsperson: '🔍',
  coa: '📋',
  citizen: '🗳',
};

/** R-04: the Corrupt are Bad, everyone else Good. */
function teamOf(role) {
  return role === 'corrupt_politician' ? 'bad' : 'good';
}

/** A role as a badge: icon, title and the team's colour and word. */
export function roleBadge(role) {
  const team = teamOf(role);
  return h(
    'span',
    { class: `role-badge team-${team}`, data: { role } },
    `${ROLE_ICONS[role] || ''} ${roleTitle(role)}`,
    h('span', { class: 'team-word', text: ` · ${t(`team.${team}`)}` }),
  );
}
