// Durations as the LMS standards write them (pure): ISO 8601 for SCORM 2004 and xAPI, and SCORM 1.2's
// CMITimespan (HHHH:MM:SS.SS).

/** Milliseconds as an ISO 8601 duration: 'PT0S', 'PT12.5S', 'PT1H2M3.04S' (hundredths of a second). */
export function isoDuration(ms) {
  const total = Math.max(0, Math.round(Number(ms) / 10) || 0); // hundredths
  const h = Math.floor(total / 360000), m = Math.floor((total % 360000) / 6000), cs = total % 6000;
  const s = cs % 100 ? (cs / 100).toFixed(2).replace(/0$/, '') : String(cs / 100);
  return `PT${h ? `${h}H` : ''}${m ? `${m}M` : ''}${s !== '0' || (!h && !m) ? `${s}S` : ''}`;
}

/** Milliseconds as SCORM 1.2's CMITimespan: '0000:00:12.50' (hours capped at 9999). */
export function scorm12Time(ms) {
  const total = Math.max(0, Math.round(Number(ms) / 10) || 0);
  const h = Math.min(9999, Math.floor(total / 360000)), m = Math.floor((total % 360000) / 6000), cs = total % 6000;
  const pad = (n, w) => String(n).padStart(w, '0');
  return `${pad(h, 4)}:${pad(m, 2)}:${pad(Math.floor(cs / 100), 2)}.${pad(cs % 100, 2)}`;
}
