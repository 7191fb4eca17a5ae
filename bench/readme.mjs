// Copies the benchmark report into README.md between its bench:start and bench:end markers,
// so the README always shows the last full run (quick runs leave it alone).
import fs from 'node:fs';

const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';

/** Replaces the README's benchmark section with `report`; returns false when no markers exist. */
export function includeInReadme(readmePath, report) {
  const text = fs.readFileSync(readmePath, 'utf8');
  const from = text.indexOf(START), to = text.indexOf(END);
  if (from < 0 || to < from) return false;
  // The report's own title would repeat the README's heading: start at its first paragraph.
  const body = report.replace(/^# .*\n+/, '').replace(/^## /gm, '### ');
  fs.writeFileSync(readmePath, `${text.slice(0, from + START.length)}\n${body.trim()}\n${text.slice(to)}`);
  return true;
}
