/** Small helpers shared by the bench scripts: medians, number formats and Markdown tables. */

export function median(values) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function formatMs(ms) {
  if (!Number.isFinite(ms)) return 'n/a';
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  return `${Math.round(ms)} ms`;
}

export function formatRatio(ratio) {
  return Number.isFinite(ratio) ? ratio.toFixed(2) : 'n/a';
}

export function formatMiB(bytes) {
  if (!Number.isFinite(bytes)) return 'n/a';
  const mib = bytes / 1048576;
  return `${(Math.abs(mib) < 0.05 ? 0 : mib).toFixed(1)} MiB`;
}

export function formatCount(n) {
  return n.toLocaleString('en-US');
}

/** A Markdown table (which also reads well on a console). */
export function renderTable(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => '| ' + cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ') + ' |';
  return [line(header), '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|', ...rows.map(line)].join('\n');
}
