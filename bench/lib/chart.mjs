/**
 * A line chart as plain SVG, no dependency: time against tree size, one line per tool, both axes
 * logarithmic (the trees span 5k to 200k files and the times three orders of magnitude), so that a
 * straight line of slope 1 is linear scaling and the vertical gap between two lines is their ratio.
 */

const COLORS = ['#d62728', '#ff7f0e', '#e377c2', '#1f77b4', '#17becf', '#2ca02c', '#9467bd', '#8c564b', '#7f7f7f', '#bcbd22'];

function escapeXml(s) {
  return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Powers of ten and their 2x, 5x multiples inside [lo, hi]. */
function logTicks(lo, hi) {
  const ticks = [];
  for (let p = Math.floor(Math.log10(lo)); p <= Math.ceil(Math.log10(hi)); p++) {
    for (const m of [1, 2, 5]) {
      const v = m * 10 ** p;
      if (v >= lo && v <= hi) ticks.push(v);
    }
  }
  return ticks;
}

function formatTick(v, unit) {
  if (unit === 'files') return v >= 1000 ? `${Math.round(v / 1000)}k` : String(v);
  return v >= 1000 ? `${v / 1000} s` : `${v} ms`;
}

/**
 * `series`: `[{ name, points: [{ x, y, label? }], emphasis? }]`. Returns the SVG text.
 * Points with a non-finite y are left out of their line.
 */
export function renderScalingChart({ title, subtitle, xLabel, yLabel, series }) {
  const width = 860;
  const height = 500;
  const margin = { left: 70, right: 250, top: 64, bottom: 56 };
  const plotW = width - margin.left - margin.right;
  const plotH = height - margin.top - margin.bottom;
  const points = series.flatMap((s) => s.points.filter((p) => Number.isFinite(p.y) && p.y > 0));
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const xLo = Math.min(...xs) / 1.4;
  const xHi = Math.max(...xs) * 1.4;
  const yLo = Math.min(...ys) / 1.5;
  const yHi = Math.max(...ys) * 1.5;
  const sx = (x) => margin.left + ((Math.log10(x) - Math.log10(xLo)) / (Math.log10(xHi) - Math.log10(xLo))) * plotW;
  const sy = (y) => margin.top + plotH - ((Math.log10(y) - Math.log10(yLo)) / (Math.log10(yHi) - Math.log10(yLo))) * plotH;

  const out = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`);
  out.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  out.push(`<text x="${margin.left}" y="24" font-size="16" font-weight="bold">${escapeXml(title)}</text>`);
  if (subtitle) out.push(`<text x="${margin.left}" y="44" fill="#555">${escapeXml(subtitle)}</text>`);

  // Grid and ticks.
  for (const t of logTicks(yLo, yHi)) {
    const y = sy(t).toFixed(1);
    out.push(`<line x1="${margin.left}" x2="${margin.left + plotW}" y1="${y}" y2="${y}" stroke="#e5e5e5"/>`);
    out.push(`<text x="${margin.left - 6}" y="${y}" text-anchor="end" dominant-baseline="middle" fill="#444">${formatTick(t, 'ms')}</text>`);
  }
  const xTicks = [...new Set(points.map((p) => p.x))].sort((a, b) => a - b);
  for (const t of xTicks) {
    const x = sx(t).toFixed(1);
    const label = points.find((p) => p.x === t && p.label)?.label;
    out.push(`<line x1="${x}" x2="${x}" y1="${margin.top}" y2="${margin.top + plotH}" stroke="#e5e5e5"/>`);
    out.push(`<text x="${x}" y="${margin.top + plotH + 16}" text-anchor="middle" fill="#444">${formatTick(t, 'files')}</text>`);
    if (label) out.push(`<text x="${x}" y="${margin.top + plotH + 30}" text-anchor="middle" fill="#777">${escapeXml(label)}</text>`);
  }
  out.push(`<rect x="${margin.left}" y="${margin.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#999"/>`);
  out.push(`<text x="${margin.left + plotW / 2}" y="${height - 8}" text-anchor="middle">${escapeXml(xLabel)}</text>`);
  out.push(`<text transform="translate(16 ${margin.top + plotH / 2}) rotate(-90)" text-anchor="middle">${escapeXml(yLabel)}</text>`);

  // One line per series, and its legend entry with the value at the largest tree.
  out.push(`<text x="${margin.left + plotW + 16}" y="${margin.top - 10}" fill="#555">at the largest tree:</text>`);
  series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length];
    const stroke = s.emphasis ? 3 : 1.6;
    const dash = s.dashed ? ' stroke-dasharray="5 4"' : '';
    const pts = s.points.filter((p) => Number.isFinite(p.y) && p.y > 0).sort((a, b) => a.x - b.x);
    if (pts.length > 1) {
      const d = pts.map((p, j) => `${j === 0 ? 'M' : 'L'}${sx(p.x).toFixed(1)} ${sy(p.y).toFixed(1)}`).join(' ');
      out.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="${stroke}"${dash}/>`);
    }
    for (const p of pts) out.push(`<circle cx="${sx(p.x).toFixed(1)}" cy="${sy(p.y).toFixed(1)}" r="${s.emphasis ? 3.5 : 2.5}" fill="${color}"/>`);
    const ly = margin.top + 8 + i * 20;
    const lx = margin.left + plotW + 16;
    out.push(`<line x1="${lx}" x2="${lx + 24}" y1="${ly}" y2="${ly}" stroke="${color}" stroke-width="${stroke}"${dash}/>`);
    const last = pts[pts.length - 1];
    const suffix = last ? `  ${Math.round(last.y)} ms` : '';
    out.push(`<text x="${lx + 30}" y="${ly}" dominant-baseline="middle"${s.emphasis ? ' font-weight="bold"' : ''}>${escapeXml(s.name + suffix)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}

/**
 * Horizontal bars, one block per group: each command's median as a bar against its group's
 * reference (a line at 1.0x), its target as a dashed line when the group has one. Bars are ratios,
 * not milliseconds, so groups of very different times share one scale.
 * `groups`: `[{ name, rows: [{ label, ms, ratio, ours? }], target?: { ratio, label } }]`.
 */
export function renderRatioBars({ title, subtitle, groups }) {
  const width = 860;
  const labelW = 300;
  const barW = width - labelW - 120;
  const rowH = 22;
  const top = 64;
  const widest = Math.max(...groups.flatMap((g) => [...g.rows.map((r) => r.ratio), g.target?.ratio ?? 0])) * 1.05;
  const sx = (ratio) => labelW + (ratio / widest) * barW;
  const height = top + groups.reduce((h, g) => h + 28 + g.rows.length * rowH + 14, 0) + 24;
  const out = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`);
  out.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  out.push(`<text x="16" y="24" font-size="16" font-weight="bold">${escapeXml(title)}</text>`);
  if (subtitle) out.push(`<text x="16" y="44" fill="#555">${escapeXml(subtitle)}</text>`);
  let y = top;
  for (const group of groups) {
    out.push(`<text x="16" y="${y + 16}" font-weight="bold">${escapeXml(group.name)}</text>`);
    y += 28;
    const blockTop = y;
    group.rows.forEach((row, i) => {
      const ry = y + i * rowH;
      const color = row.ours ? COLORS[0] : '#9e9e9e';
      out.push(`<text x="${labelW - 8}" y="${ry + rowH / 2}" text-anchor="end" dominant-baseline="middle"${row.ours ? ' font-weight="bold"' : ''}>${escapeXml(row.label)}</text>`);
      out.push(`<rect x="${labelW}" y="${ry + 4}" width="${Math.max(1, sx(row.ratio) - labelW).toFixed(1)}" height="${rowH - 8}" fill="${color}"/>`);
      out.push(`<text x="${(sx(row.ratio) + 6).toFixed(1)}" y="${ry + rowH / 2}" dominant-baseline="middle" fill="#333">${row.ratio.toFixed(2)}x  ${Math.round(row.ms)} ms</text>`);
    });
    y += group.rows.length * rowH;
    out.push(`<line x1="${sx(1).toFixed(1)}" x2="${sx(1).toFixed(1)}" y1="${blockTop}" y2="${y}" stroke="#333"/>`);
    if (group.target) {
      const tx = sx(group.target.ratio).toFixed(1);
      out.push(`<line x1="${tx}" x2="${tx}" y1="${blockTop}" y2="${y}" stroke="${COLORS[5]}" stroke-width="2" stroke-dasharray="5 4"/>`);
      out.push(`<text x="${tx}" y="${blockTop - 4}" text-anchor="middle" fill="${COLORS[5]}">${escapeXml(group.target.label)}</text>`);
    }
    y += 14;
  }
  out.push('</svg>');
  return out.join('\n') + '\n';
}
