// SCORM packages in a real SCORM runtime (scorm-again, from npm), hosted as an LMS hosts a SCO: the
// packages npm run scorm writes are unzipped beside a parent page that creates the runtime's API object
// (window.API for 1.2, window.API_1484_11 for 2004) and frames the manifest's launch file. A learner
// answers in the frame; the test reads the runtime's CMI data (interactions, score, statuses,
// suspend_data), then relaunches with that data (as an LMS does for a suspended attempt, with this
// browser's storage cleared) and checks the answers resume. Also: the manifests are well-formed XML of
// the right structure, the page asks for nothing outside its package, and a page with no LMS or an LMS
// that refuses a value says so on the page and the console without breaking.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, writeFile, readFile, rm, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { unzipSync } from 'fflate';
import { createRequire } from 'node:module';
import { startHarness, openUrl, serveSite, root } from './harness.mjs';
import { serve } from '../../scripts/serve.mjs';
import { readOptions, writePackages } from '../../scripts/scorm.mjs';

const EXERCISES = ['cost.params-bias', 'cost.dominant'];
let h, site, dir, built, dominant;

// The LMS: the runtime's API object on this window (loaded with the saved CMI data on a relaunch), the
// manifest's launch file in a frame, and the frame's posted messages kept (they carry the expected answers).
const lmsPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>An LMS</title><link rel="icon" href="data:,">
<script src="scorm12.js"></script><script src="scorm2004.js"></script></head>
<body><h1>Course</h1><iframe id="sco" title="the SCO" style="width:100%;height:820px;border:0"></iframe>
<script>
  const v = new URLSearchParams(location.search).get('v');
  const fail = new URLSearchParams(location.search).get('fail');
  const api = v === '12' ? new Scorm12API({ logLevel: 4 }) : new Scorm2004API({ logLevel: 4 });
  const saved = sessionStorage.getItem('cmi-' + v);
  const pass = new URLSearchParams(location.search).get('pass');
  if (saved) api.loadFromJSON(JSON.parse(saved));
  else if (pass) api.loadFromJSON({ scaled_passing_score: pass }); // what an LMS reads from the manifest's objective
  // An LMS that refuses one element: the runtime itself rejects the value sent for it (a type mismatch).
  if (fail) { const set = v === '12' ? 'LMSSetValue' : 'SetValue', real = api[set].bind(api);
    api[set] = (k, val) => real(k, k === fail ? 'not a number' : val); }
  window[v === '12' ? 'API' : 'API_1484_11'] = api;
  window.messages = [];
  addEventListener('message', (e) => { if (e.data?.type === 'attention-playground:attempt') messages.push(e.data); });
  window.cmi = () => JSON.parse(JSON.stringify(api.cmi));
  // Every value the SCO sets, in order (a status the LMS saw for a moment counts too).
  window.sets = [];
  { const set = v === '12' ? 'LMSSetValue' : 'SetValue', real = api[set].bind(api); api[set] = (k, val) => { window.sets.push([k, val]); return real(k, val); }; }
  window.keep = () => sessionStorage.setItem('cmi-' + v, JSON.stringify(api.cmi));
  fetch('pkg' + v + '/imsmanifest.xml').then((r) => r.text()).then((text) => {
    window.manifestText = text;
    const doc = new DOMParser().parseFromString(text, 'application/xml');
    document.getElementById('sco').src = 'pkg' + v + '/' + doc.querySelector('resource').getAttribute('href');
  });
</script></body></html>`;

before(async () => {
  h = await startHarness();
  dir = await mkdtemp(join(tmpdir(), 'attention-lms-'));
  built = await writePackages(readOptions(['--chapter', 'cost', '--exercises', EXERCISES.join(','), '--mastery', '80', '--out', join(dir, 'zips')]));
  for (const { version, path } of built) {
    const files = unzipSync(await readFile(path));
    for (const [name, bytes] of Object.entries(files)) {
      const to = join(dir, 'site', version === '1.2' ? 'pkg12' : 'pkg2004', name);
      await mkdir(dirname(to), { recursive: true });
      await writeFile(to, bytes);
    }
  }
  for (const f of ['scorm12.js', 'scorm2004.js']) await copyFile(join(root, 'node_modules/scorm-again/dist', f), join(dir, 'site', f));
  await writeFile(join(dir, 'site/lms.html'), lmsPage);
  site = await serve({ dir: join(dir, 'site'), port: 0 });
});
after(async () => { await site?.close(); await h?.close(); if (dir) await rm(dir, { recursive: true, force: true }); });

/** The SCO's page (the frame, once scorm.html has opened index.html) with its first result drawn. */
async function sco(page) {
  const frame = page.frameLocator('#sco');
  await frame.locator('#status', { hasText: 'Ran in' }).waitFor({ timeout: 60000 });
  await frame.locator(`[data-mark="${EXERCISES[0]}"]`).waitFor({ timeout: 60000 });
  return frame;
}

/** Answers `id` in the frame as a learner (a typed number or a picked choice) and waits for the LMS to hear it. */
async function answer(page, frame, id, value) {
  const seen = await page.evaluate(() => window.messages.length);
  await frame.locator(`[data-mark="${id}"]`).click();
  const card = frame.locator(`[data-exercise="${id}"]`);
  if (id === 'cost.dominant') await card.locator(`input[value="${value}"]`).check();
  else await card.locator('input[name="answer"]').fill(String(value));
  await card.locator('button[type="submit"]').click();
  await page.waitForFunction((n) => window.messages.length > n, seen, { timeout: 30000 });
  return page.evaluate(() => window.messages.at(-1));
}

/** "Show answer" on `id` in the frame, as a learner: waits until the exercise shows as revealed. */
async function reveal(frame, id) {
  await frame.locator(`[data-mark="${id}"]`).click();
  await frame.locator(`[data-exercise="${id}"] button.ex-show`).click();
  await frame.locator(`[data-mark="${id}"][data-status="revealed"]`).waitFor({ timeout: 30000 });
}
/** The learner leaves (this browser's storage emptied, the SCO terminated) and the LMS relaunches with the data it kept: the new frame. */
async function relaunch(page, frame) {
  await frame.locator('body').evaluate(() => localStorage.clear());
  await page.evaluate(() => document.getElementById('sco').remove());
  await page.evaluate(() => window.keep());
  await page.reload();
  return sco(page);
}
const marks = (frame) => frame.locator('.ex-marks button').evaluateAll((bs) => bs.map((b) => [b.dataset.mark, b.dataset.status]));
const interactions = (list) => Object.values(list ?? {}).map((i) => i);

test('SCORM 1.2: interactions per attempt, score from first tries, failed below mastery, then resume from suspend_data', async () => {
  const page = await openUrl(h, `${site.url}lms.html?v=12`, { waitForResult: false });
  page.setDefaultTimeout(60000);
  const frame = await sco(page);
  assert.equal(await page.evaluate(() => window.API.cmi.core.lesson_status), 'incomplete', 'initialized and started');
  // The manifest: well-formed, SCORM 1.2's structure, the mastery score, every file of the resource present.
  const manifest = await page.evaluate(() => {
    const doc = new DOMParser().parseFromString(window.manifestText, 'application/xml');
    const ns = 'http://www.adlnet.org/xsd/adlcp_rootv1p2';
    const res = doc.querySelectorAll('resources > resource');
    return { error: doc.querySelector('parsererror')?.textContent ?? null, root: doc.documentElement.namespaceURI, version: doc.querySelector('metadata > schemaversion')?.textContent,
      orgs: doc.querySelectorAll('organizations > organization').length, items: doc.querySelectorAll('organization > item').length, resources: res.length,
      scormtype: res[0].getAttributeNS(ns, 'scormtype'), mastery: doc.getElementsByTagNameNS(ns, 'masteryscore')[0]?.textContent,
      ref: doc.querySelector('item').getAttribute('identifierref') === res[0].getAttribute('identifier'), files: [...res[0].querySelectorAll('file')].map((f) => f.getAttribute('href')) };
  });
  assert.deepEqual({ ...manifest, files: undefined }, { error: null, root: 'http://www.imsproject.org/xsd/imscp_rootv1p1p2', version: '1.2', orgs: 1, items: 1, resources: 1, scormtype: 'sco', mastery: '80', ref: true, files: undefined });
  for (const f of ['scorm.html', 'index.html', 'page.js', 'panels.js', 'worker.js', 'pool_worker.js', 'wasm/attention_simd.wasm', 'wasm/attention_scalar.mjs']) assert.ok(manifest.files.includes(f), f);

  // A learner: the bias count right at once; the dominant term wrong, then right.
  const first = await answer(page, frame, 'cost.params-bias', '66,048');
  assert.equal(first.correct, true, JSON.stringify(first));
  const wrong = await answer(page, frame, 'cost.dominant', 'softmax');
  assert.equal(wrong.correct, false);
  assert.equal(wrong.expected, undefined, 'a first wrong answer gets a hint, not the answer (issue 36)');
  const right = await answer(page, frame, 'cost.dominant', 'projections'); // the second try, after the hint (n = 10 < d = 64)
  assert.equal(right.correct, true);
  dominant = right.expected; // the 2004 learner knows it
  assert.equal(dominant, 'projections');
  const cmi = await page.evaluate(() => window.cmi());
  assert.deepEqual(interactions(cmi.interactions).map((i) => [i.id, i.type, i.student_response, i.result]), [
    ['cost.params-bias', 'numeric', '66048', 'correct'], ['cost.dominant', 'fill-in', 'softmax', 'wrong'], ['cost.dominant', 'fill-in', dominant, 'correct']]);
  assert.deepEqual([cmi.core.score.raw, cmi.core.score.min, cmi.core.score.max, cmi.core.lesson_status], ['50', '0', '100', 'failed'], 'one of two right on the first try: 50 < 80');
  assert.deepEqual(JSON.parse(cmi.suspend_data), { v: 1, r: { 'cost.params-bias': [1, 1, 1, 0], 'cost.dominant': [2, 1, 0, 0] } });
  assert.equal(cmi.core.exit, 'suspend');
  assert.deepEqual(page.problems, []);

  // The learner leaves: LMSFinish with the session time. The LMS keeps the data and relaunches; this
  // browser's own storage is emptied, so what the frame shows can only come from suspend_data.
  await frame.locator('body').evaluate(() => localStorage.clear());
  await page.evaluate(() => document.getElementById('sco').remove()); // pagehide: the SCO terminates
  const ended = await page.evaluate(() => ({ finished: window.API.isTerminated(), time: window.cmi().core.session_time }));
  assert.equal(ended.finished, true, 'LMSFinish was called');
  assert.match(ended.time, /^\d{2,4}:\d{2}:\d{2}(\.\d{1,2})?$/);
  const seconds = ended.time.split(':').reduce((sum, part) => sum * 60 + Number(part), 0);
  assert.ok(seconds > 0.5 && seconds < 600, `session time ${ended.time}: the time spent was written`);
  await page.evaluate(() => window.keep());
  await page.reload();
  const again = await sco(page);
  await again.locator(`[data-mark="cost.dominant"][data-status="right"]`).waitFor({ timeout: 30000 });
  assert.deepEqual(await marks(again), [['cost.params-bias', 'right'], ['cost.dominant', 'right']], 'resumed from suspend_data');
  // One more attempt after the resume: a fourth interaction; the score still counts first tries.
  await answer(page, again, 'cost.params-bias', '66048');
  const later = await page.evaluate(() => window.cmi());
  assert.deepEqual(interactions(later.interactions).map((i) => i.id), ['cost.params-bias', 'cost.dominant', 'cost.dominant', 'cost.params-bias']);
  assert.deepEqual([later.core.score.raw, later.core.lesson_status], ['50', 'failed']);
  assert.deepEqual(JSON.parse(later.suspend_data).r['cost.params-bias'], [2, 1, 1, 0]);
  // Nothing outside the package (and the LMS's own page and runtime) was asked for.
  const outside = page.requests.filter((u) => !u.startsWith(`${site.url}pkg12/`) && !/\/(lms\.html\?v=12|scorm12\.js|scorm2004\.js)$/.test(u) && !u.startsWith('data:'));
  assert.deepEqual(outside, []);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('SCORM 2004: learner_response, description, scaled score, completion and success (the LMS\'s passing score wins), Terminate, resume', async () => {
  assert.ok(dominant, 'the 1.2 test found the dominant term\'s key');
  const page = await openUrl(h, `${site.url}lms.html?v=2004&pass=0.5`, { waitForResult: false });
  page.setDefaultTimeout(60000);
  const frame = await sco(page);
  const manifest = await page.evaluate(() => {
    const doc = new DOMParser().parseFromString(window.manifestText, 'application/xml');
    const adlcp = 'http://www.adlnet.org/xsd/adlcp_v1p3', imsss = 'http://www.imsglobal.org/xsd/imsss';
    const res = doc.querySelectorAll('resources > resource');
    const objective = doc.getElementsByTagNameNS(imsss, 'primaryObjective')[0];
    return { error: doc.querySelector('parsererror')?.textContent ?? null, root: doc.documentElement.namespaceURI, version: doc.querySelector('metadata > schemaversion')?.textContent,
      orgs: doc.querySelectorAll('organizations > organization').length, items: doc.querySelectorAll('organization > item').length, resources: res.length,
      scormType: res[0].getAttributeNS(adlcp, 'scormType'), byMeasure: objective?.getAttribute('satisfiedByMeasure'),
      measure: doc.getElementsByTagNameNS(imsss, 'minNormalizedMeasure')[0]?.textContent, files: res[0].querySelectorAll('file').length };
  });
  assert.ok(manifest.files > 20, `${manifest.files} files listed`);
  assert.deepEqual({ ...manifest, files: 0 }, { error: null, root: 'http://www.imsglobal.org/xsd/imscp_v1p1', version: '2004 4th Edition', orgs: 1, items: 1, resources: 1,
    scormType: 'sco', byMeasure: 'true', measure: '0.8', files: 0 });
  assert.equal(await page.evaluate(() => window.API_1484_11.cmi.completion_status), 'incomplete');

  // Right at once: 50, which passes the LMS's 0.5 (not the author's 80) before every exercise is done.
  await answer(page, frame, 'cost.params-bias', '66048');
  let cmi = await page.evaluate(() => window.cmi());
  assert.deepEqual([cmi.score.raw, cmi.score.scaled, cmi.completion_status, cmi.success_status, cmi.progress_measure], ['50', '0.5', 'incomplete', 'passed', '0.5']);
  await answer(page, frame, 'cost.dominant', dominant);
  cmi = await page.evaluate(() => window.cmi());
  const list = interactions(cmi.interactions);
  assert.deepEqual(list.map((i) => [i.id, i.type, i.learner_response, i.result]), [['cost.params-bias', 'numeric', '66048', 'correct'], ['cost.dominant', 'choice', dominant, 'correct']]);
  assert.match(list[1].description, /dominat|term|cost/i, 'the prompt');
  assert.match(list[0].timestamp, /^\d{4}-\d{2}-\d{2}T/);
  assert.deepEqual([cmi.score.raw, cmi.score.scaled, cmi.score.min, cmi.score.max, cmi.completion_status, cmi.success_status, cmi.progress_measure], ['100', '1', '0', '100', 'completed', 'passed', '1']);
  assert.equal(cmi.exit, 'suspend');

  await frame.locator('body').evaluate(() => localStorage.clear());
  await page.evaluate(() => document.getElementById('sco').remove());
  const ended = await page.evaluate(() => ({ terminated: window.API_1484_11.isTerminated(), time: window.cmi().session_time }));
  assert.equal(ended.terminated, true, 'Terminate was called');
  assert.match(ended.time, /^PT(\d+H)?(\d+M)?[\d.]+S$/);
  await page.evaluate(() => window.keep());
  await page.reload();
  const again = await sco(page);
  await again.locator('[data-mark="cost.dominant"][data-status="right"]').waitFor({ timeout: 30000 });
  assert.deepEqual(await marks(again), [['cost.params-bias', 'right'], ['cost.dominant', 'right']], 'resumed from suspend_data');
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('"Show answer" reaches the LMS: done without an attempt, kept across a relaunch, and a right answer after it scores nothing', async () => {
  const page = await openUrl(h, `${site.url}lms.html?v=12`, { waitForResult: false });
  page.setDefaultTimeout(60000);
  const frame = await sco(page);
  await reveal(frame, 'cost.dominant');
  await page.waitForFunction(() => window.cmi().suspend_data.includes('cost.dominant'), null, { timeout: 30000 });
  let cmi = await page.evaluate(() => window.cmi());
  assert.deepEqual(JSON.parse(cmi.suspend_data), { v: 1, r: { 'cost.dominant': [0, 0, 0, 1] } }, 'the reveal is in suspend_data');
  assert.deepEqual([cmi.core.score.raw, cmi.core.lesson_status], ['0', 'incomplete'], 'one of two done, nothing right');
  assert.deepEqual(interactions(cmi.interactions), [], 'a reveal is not an attempt');
  await answer(page, frame, 'cost.params-bias', '66048');
  cmi = await page.evaluate(() => window.cmi());
  assert.deepEqual([cmi.core.score.raw, cmi.core.lesson_status], ['50', 'failed'], 'both done (one shown), one right at the first try: 50 < 80');
  // Relaunched with this browser's storage emptied: the exercise is still shown, and answering it now is practice.
  const again = await relaunch(page, frame);
  await again.locator('[data-mark="cost.dominant"][data-status="revealed"]').waitFor({ timeout: 30000 });
  const late = await answer(page, again, 'cost.dominant', 'projections');
  assert.deepEqual([late.correct, late.first_try], [true, false], JSON.stringify(late));
  cmi = await page.evaluate(() => window.cmi());
  assert.deepEqual([cmi.core.score.raw, cmi.core.lesson_status], ['50', 'failed'], 'the right answer after the reveal scores nothing');
  assert.deepEqual(JSON.parse(cmi.suspend_data).r['cost.dominant'], [1, 0, 0, 1]);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('a package with an author\'s lesson (--lesson): the page opens with its words, and its own exercise is graded in the LMS', async () => {
  const lesson = { text: { 'chapter.cost.weights.title': 'AN AUTHOR\'S TITLE' },
    exercises: [{ id: 'course.total', chapter: 'cost', kind: 'number', prompt: 'How many parameters has this layer, biases included?', answer: { quantity: 'params.total' } }] };
  await writeFile(join(dir, 'lesson.json'), JSON.stringify(lesson));
  const [, pkg] = await writePackages(readOptions(['--chapter', 'cost', '--exercises', `${EXERCISES[0]},course.total`, '--lesson', join(dir, 'lesson.json'), '--out', join(dir, 'zips-lesson')]));
  for (const [name, bytes] of Object.entries(unzipSync(await readFile(pkg.path)))) {
    const to = join(dir, 'site', 'pkgL', name);
    await mkdir(dirname(to), { recursive: true });
    await writeFile(to, bytes);
  }
  const page = await openUrl(h, `${site.url}lms.html?v=L`, { waitForResult: false }); // v=L: the 2004 runtime, package pkgL
  page.setDefaultTimeout(60000);
  const frame = await sco(page);
  await frame.locator('[data-mark="course.total"]').waitFor();
  const right = await answer(page, frame, 'course.total', '16640'); // 4·64·64 + 4·64
  assert.deepEqual([right.correct, right.first_try], [true, true], JSON.stringify(right));
  const cmi = await page.evaluate(() => window.cmi());
  assert.deepEqual(interactions(cmi.interactions).map((i) => [i.id, i.learner_response, i.result]), [['course.total', '16640', 'correct']]);
  assert.deepEqual(JSON.parse(cmi.suspend_data).r['course.total'], [1, 1, 1, 0]);
  assert.equal(cmi.score.raw, '50', 'one of the two exercises, the author\'s, right at the first try');
  assert.deepEqual(page.problems, []);
  // Relaunched (this browser's storage emptied): until the lesson's exercise is among those counted, the
  // LMS hears no score; a score over the lesson's own exercise alone would have read 0 of 1, failed.
  const again = await relaunch(page, frame);
  await again.locator('[data-mark="course.total"][data-status="right"]').waitFor({ timeout: 30000 });
  await page.waitForFunction(() => window.sets.some(([k]) => k === 'cmi.score.raw'), null, { timeout: 30000 });
  const raws = await page.evaluate(() => window.sets.filter(([k]) => k === 'cmi.score.raw').map(([, v]) => v));
  assert.deepEqual([...new Set(raws)], ['50'], `every score the relaunch reported: ${raws}`);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('no LMS around the page, or an LMS that refuses a value: a visible note and the console say so; the playground runs on', async () => {
  const alone = await openUrl(h, `${site.url}pkg12/scorm.html`, { waitForResult: false });
  await alone.locator('#status', { hasText: 'Ran in' }).waitFor({ timeout: 60000 });
  assert.match(await alone.locator('.lms-note').textContent(), /Results are not reaching the course: no SCORM 1\.2 LMS holds this page \(no API object in its frames or its opener\)/);
  assert.equal(await alone.locator('.lms-note').getAttribute('role'), 'status');
  assert.ok(await alone.locator('.lms-note').isVisible(), 'the note is shown above the playground');
  assert.deepEqual(alone.problems.map((p) => p.replace(/:.*/, '')), ['console warning']);
  await alone.closeAll();

  const page = await openUrl(h, `${site.url}lms.html?v=2004&fail=cmi.score.scaled`, { waitForResult: false });
  page.setDefaultTimeout(60000);
  const frame = await sco(page);
  await answer(page, frame, 'cost.params-bias', '1');
  const note = frame.locator('.lms-note');
  await note.waitFor();
  assert.match(await note.textContent(), /the LMS refused SetValue\("cmi\.score\.scaled", "0"\): error 406 \(/);
  // Everything else still reached the LMS, and the learner's page still answers.
  const cmi = await page.evaluate(() => window.cmi());
  assert.deepEqual([cmi.score.raw, interactions(cmi.interactions).map((i) => i.result)], ['0', ['incorrect']]);
  assert.ok(page.problems.some((p) => /console warning: .*the LMS refused SetValue\("cmi\.score\.scaled"/.test(p)), page.problems.join('\n'));
  assert.ok(!page.problems.some((p) => p.startsWith('pageerror')), page.problems.join('\n'));
  await page.closeAll();
});

test('EMBED.md\'s xAPI snippet, as written (local addresses): valid answered and completed statements reach the LRS', async () => {
  const doc = await readFile(join(root, 'web/EMBED.md'), 'utf8');
  const section = doc.slice(doc.indexOf('### xAPI: forwarding to a learning record store'));
  const snippet = /```html\n([\s\S]*?)```/.exec(section)[1];
  const playground = new URL(h.url).origin;
  const host = snippet.replaceAll('https://example.org/attention/', h.url).replace("'https://example.org'", `'${playground}'`);
  assert.notEqual(host, snippet);
  const course = await serveSite({ 'course.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Course</title><link rel="icon" href="data:,"></head>
<body><iframe id="sco" title="playground" style="width:100%;height:800px;border:0" src="${h.url}index.html#embed=1&chapter=cost&exercises=cost.params-bias"></iframe>
${host}</body></html>` });
  const posted = [];
  const page = await openUrl(h, `${course.url}course.html`, { waitForResult: false });
  const cors = { 'access-control-allow-origin': new URL(course.url).origin, 'access-control-allow-headers': 'Content-Type, X-Experience-API-Version, Authorization', 'access-control-allow-methods': 'POST' };
  await page.route('https://lrs.example.org/**', (route) => {
    const r = route.request();
    if (r.method() === 'POST') posted.push({ body: JSON.parse(r.postData()), headers: r.headers() });
    return route.fulfill({ status: r.method() === 'POST' ? 200 : 204, headers: { ...cors, 'content-type': 'application/json' }, body: r.method() === 'POST' ? '["ok"]' : '' });
  });
  const frame = page.frameLocator('#sco');
  await frame.locator('[data-exercise="cost.params-bias"] input[name="answer"]').fill('66048', { timeout: 60000 });
  await frame.locator('[data-exercise="cost.params-bias"] button[type="submit"]').click();
  const deadline = Date.now() + 30000;
  while (posted.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const validate = createRequire(import.meta.url)('xapi-validation').default;
  assert.deepEqual(posted.map((p) => p.body.verb.id), ['http://adlnet.gov/expapi/verbs/answered', 'http://adlnet.gov/expapi/verbs/completed']);
  for (const { body, headers } of posted) {
    assert.deepEqual(validate(body).map((w) => `${w.path.join('.')}: ${w.typeName ?? w.name}`), [], JSON.stringify(body));
    assert.equal(headers['x-experience-api-version'], '1.0.3');
    assert.match(headers.authorization, /^Basic [A-Za-z0-9+/=]+$/);
  }
  const [answered, completed] = posted.map((p) => p.body);
  assert.equal(answered.object.id, 'urn:attention-playground:exercise:cost.params-bias');
  assert.deepEqual([answered.result.success, answered.result.response, answered.context.contextActivities.parent[0].id], [true, '66048', 'urn:attention-playground:chapter:cost']);
  assert.match(answered.result.duration, /^PT[\d.]+S$/);
  assert.deepEqual([completed.object.id, completed.result.score, completed.result.success], ['urn:attention-playground:chapter:cost', { scaled: 1, raw: 1, min: 0, max: 1 }, true]);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
  await course.close();
});
