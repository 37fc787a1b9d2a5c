/** A QR code as an inline SVG (drawn from the vendored qrcode-generator's modules). */

import qrcode from '../vendor/qrcode.mjs';
import { svg } from './dom.js';

/** An `<svg>` QR code of `text`, labelled `label` for screen readers. */
export function qrSvg(text, label) {
  const code = qrcode(0, 'M');
  code.addData(text);
  code.make();
  const count = code.getModuleCount();
  const margin = 4;
  const size = count + margin * 2;
  let path = '';
  for (let row = 0; row < count; row += 1) {
    for (let col = 0; col < count; col += 1) {
      if (code.isDark(row, col)) path += `M${col + margin},${row + margin}h1v1h-1z`;
    }
  }
  return svg(
    'svg',
    { viewBox: `0 0 ${size} ${size}`, role: 'img', 'aria-label': label, class: 'qr', 'shape-rendering': 'crispEdges' },
    svg('rect', { width: size, height: size, fill: '#ffffff' }),
    svg('path', { d: path, fill: '#000000' }),
  );
}
