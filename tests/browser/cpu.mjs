// The CPU a process tree has used, by kind of process, read from Linux's /proc: how tests/browser/run.mjs
// reports a browser stage's CPU with Chromium's processes in it (`time` and bash's `times` miss them: the
// renderers are reaped by Chromium's zygote, which dies with the browser unreaped), and how a lane
// (lane.mjs) reports its own Chromium's CPU before closing it.
import { readFileSync, readdirSync } from 'node:fs';

/**
 * The CPU seconds of process `root` (this process by default) and its live descendants, by kind of process
 * (null where /proc cannot be read): each process's own time and that of the children it has reaped. The
 * root's own time counts as `rootKind` and its reaped children's as `reapedKind`; `withRoot: false` leaves
 * the root's own and reaped time out (a lane's: run.mjs counts it when it reaps the lane). The zygote's
 * reaped children are the renderers that have ended, so they count as renderers.
 */
export function treeCpu({ root = process.pid, rootKind = 'node', reapedKind = rootKind, withRoot = true } = {}) {
  const parent = new Map();
  const own = new Map();
  const reaped = new Map();
  let ids;
  try { ids = readdirSync('/proc').filter((d) => /^\d+$/.test(d)); } catch { return null; }
  for (const id of ids) {
    const stat = statOf(id);
    if (!stat) continue; // ended meanwhile
    parent.set(id, stat.parent);
    own.set(id, stat.own);
    reaped.set(id, stat.reaped);
  }
  const me = String(root);
  const mine = (id) => { for (let at = id, hops = 0; at && hops < 30; at = parent.get(at), hops++) if (at === me) return true; return false; };
  const byKind = {};
  const add = (kind, ticks) => { byKind[kind] = (byKind[kind] ?? 0) + ticks / 100; }; // USER_HZ: 100 on Linux
  for (const [id, ticks] of own) {
    if (!mine(id) || (id === me && !withRoot)) continue;
    // A process that has ended but is not reaped yet (a zombie) has no command line: it is its parent's child.
    const kind = id === me ? rootKind : processKind(id) ?? childKind(processKind(parent.get(id)));
    add(kind, ticks);
    add(id === me ? reapedKind : childKind(kind), reaped.get(id));
  }
  return { total: sum(byKind), byKind };
}

/** The CPU seconds of the children this process has reaped (null where /proc cannot be read). */
export function reapedCpu() {
  const stat = statOf('self');
  return stat ? stat.reaped / 100 : null;
}

/** A process's parent and its CPU in ticks (own: utime + stime; reaped: cutime + cstime), or null once it has ended. */
function statOf(id) {
  try {
    const stat = readFileSync(`/proc/${id}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' '); // after "pid (name) " (a name may hold ") ")
    return { parent: fields[1], own: Number(fields[11]) + Number(fields[12]), reaped: Number(fields[13]) + Number(fields[14]) };
  } catch { return null; }
}

/** The sum of a { kind: seconds } record. */
export const sum = (byKind) => Object.values(byKind).reduce((s, x) => s + x, 0);

/** The kind of a process's children: the zygote's are renderers; anything else's are of its own kind. */
const childKind = (kind) => (kind === 'zygote' ? 'renderer' : kind ?? 'other');

/**
 * What a process is: a Chromium process by its --type (the browser has none), node, or another; null when
 * it has no command line (ended, not reaped yet).
 */
function processKind(id) {
  let line; // NUL-separated, or one string with spaces as a forked Chromium process rewrites it
  try { line = readFileSync(`/proc/${id}/cmdline`, 'utf8').replaceAll('\0', ' ').trim(); } catch { return null; }
  if (!line) return null;
  const type = line.match(/ --type=(\S+)/)?.[1];
  if (type) return type;
  const program = line.split(' ')[0];
  if (/chrom/.test(program)) return 'browser';
  return /node$/.test(program) ? 'node test files' : 'other';
}
