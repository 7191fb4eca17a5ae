// SCORM's data model as the LMS adapter writes it (web/src/lms/cmi.js, pure): the score from first
// tries, the statuses against a mastery score in both versions, interactions' element names, the
// mastery score read from the LMS or the author, and suspend_data round trips (and refuses junk).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scoreOf, statusOf, scoreValues, interactionValues, masteryOf, encodeSuspend, decodeSuspend, versionOf } from '../../web/src/lms/cmi.js';
import { merged, openScorm } from '../../web/src/lms/scorm.js';

const IDS = ['a.one', 'a.two', 'a.three', 'a.four'];

test('the score counts first tries only; done counts what the page counts: right, or shown', () => {
  const record = { 'a.one': { attempts: 1, correct: true, first: true, revealed: false }, 'a.two': { attempts: 2, correct: true, first: false, revealed: false },
    'a.three': { attempts: 1, correct: false, first: false, revealed: false }, 'a.four': { attempts: 0, correct: false, first: false, revealed: true },
    'other.x': { attempts: 1, correct: true, first: true, revealed: false } };
  assert.deepEqual(scoreOf(IDS, record), { done: 3, total: 4, right: 1, raw: 25 }, 'a.three has a second try left: not done; a.four was shown: done');
  assert.deepEqual(scoreOf(['a.one', 'a.two', 'a.four'], record), { done: 3, total: 3, right: 1, raw: 33 });
  assert.deepEqual(scoreOf([], record), { done: 0, total: 0, right: 0, raw: 0 });
});

test('a progress event that does not carry a package\'s exercise leaves its entry as it was (a chapter switch), and the score follows', () => {
  const values = {};
  const api = { LMSInitialize: () => 'true', LMSGetValue: (k) => values[k] ?? '', LMSSetValue: (k, v) => { values[k] = v; return 'true'; },
    LMSCommit: () => 'true', LMSFinish: () => 'true', LMSGetLastError: () => '0', LMSGetErrorString: () => '', LMSGetDiagnostic: () => '' };
  const session = openScorm({ version: '1.2', api, mastery: '80', say: (m) => assert.fail(m) });
  const ids = ['a.one', 'a.two'];
  session.progress({ 'a.one': { attempts: 1, correct: true, first: true, revealed: false } }, ids, true);
  assert.deepEqual([values['cmi.core.score.raw'], JSON.parse(values['cmi.suspend_data']).r], ['50', { 'a.one': [1, 1, 1, 0] }]);
  // The learner looks at another chapter: its event carries other exercises only; nothing of the package changes.
  session.progress({ 'other.x': { attempts: 1, correct: true, first: true, revealed: false } }, ids, true);
  assert.deepEqual([values['cmi.core.score.raw'], JSON.parse(values['cmi.suspend_data']).r], ['50', { 'a.one': [1, 1, 1, 0] }]);
  // A frame that started without the LMS's record: two misses there after one at launch read as shown, as the page reads them.
  assert.deepEqual(merged({ attempts: 1, correct: false, first: false, revealed: false }, { attempts: 1, correct: false, first: false, revealed: false }, false),
    { attempts: 2, correct: false, first: false, revealed: true });
});

test('the session keeps the playground\'s entries (a reveal included); a frame that started without the LMS\'s record adds to it', () => {
  const shown = { attempts: 0, correct: false, first: false, revealed: true };
  assert.deepEqual(merged(undefined, shown, true), shown, '"Show answer" alone is kept, so a relaunch shows it and scores nothing');
  assert.deepEqual(merged({ attempts: 1, correct: false, first: false, revealed: false }, { attempts: 2, correct: true, first: false, revealed: false }, true),
    { attempts: 2, correct: true, first: false, revealed: false }, 'the page knew the launch record: its entry stands');
  // The page started empty (no storage in the frame): a first try there is not a first try, nor is an answer after a reveal a point.
  assert.deepEqual(merged({ attempts: 1, correct: false, first: false, revealed: false }, { attempts: 1, correct: true, first: true, revealed: false }, false),
    { attempts: 2, correct: true, first: false, revealed: false });
  assert.deepEqual(merged({ attempts: 2, correct: false, first: false, revealed: true }, { attempts: 1, correct: true, first: true, revealed: false }, false),
    { attempts: 3, correct: false, first: false, revealed: true });
  assert.deepEqual(merged({ attempts: 1, correct: true, first: true, revealed: false }, undefined, false), { attempts: 1, correct: true, first: true, revealed: false });
  assert.equal(merged(undefined, { attempts: 0, correct: false, first: false, revealed: false }, true), null);
});

test('statuses: passed once the score reaches mastery, failed only when all is done below it', () => {
  const cases = [
    [{ done: 1, total: 4, raw: 25 }, 80, { completion: 'incomplete', success: 'unknown', lesson: 'incomplete' }],
    [{ done: 4, total: 4, raw: 75 }, 80, { completion: 'completed', success: 'failed', lesson: 'failed' }],
    [{ done: 4, total: 4, raw: 80 }, 80, { completion: 'completed', success: 'passed', lesson: 'passed' }],
    [{ done: 3, total: 4, raw: 75 }, 75, { completion: 'incomplete', success: 'passed', lesson: 'passed' }],
    [{ done: 4, total: 4, raw: 0 }, null, { completion: 'completed', success: 'unknown', lesson: 'completed' }],
  ];
  for (const [score, mastery, want] of cases) assert.deepEqual(statusOf(score, mastery), want, JSON.stringify([score, mastery]));
});

test('the elements each version writes', () => {
  const score = { done: 2, total: 2, right: 1, raw: 50 };
  assert.deepEqual(scoreValues('1.2', score, 80), [['cmi.core.score.min', '0'], ['cmi.core.score.max', '100'], ['cmi.core.score.raw', '50'], ['cmi.core.lesson_status', 'failed']]);
  assert.deepEqual(scoreValues('2004', score, 80), [['cmi.score.min', '0'], ['cmi.score.max', '100'], ['cmi.score.raw', '50'], ['cmi.score.scaled', '0.5'],
    ['cmi.progress_measure', '1'], ['cmi.completion_status', 'completed'], ['cmi.success_status', 'failed']]);
  assert.equal(scoreValues('2004', { done: 1, total: 3, right: 0, raw: 0 }, 80).find(([k]) => k === 'cmi.success_status'), undefined, 'unknown is not written');
  const attempt = { id: 'cost.dominant', type: 'choice', response: 'softmax', correct: false, description: 'Which  term\ndominates?', timestamp: '2026-11-28T10:00:00.000Z' };
  assert.deepEqual(interactionValues('1.2', 3, attempt), [['cmi.interactions.3.id', 'cost.dominant'], ['cmi.interactions.3.type', 'fill-in'],
    ['cmi.interactions.3.student_response', 'softmax'], ['cmi.interactions.3.result', 'wrong']], '1.2: a choice key of several letters is fill-in text');
  assert.equal(interactionValues('1.2', 0, { ...attempt, type: 'numeric', response: '3' })[1][1], 'numeric');
  assert.deepEqual(interactionValues('2004', 0, { ...attempt, correct: true }), [['cmi.interactions.0.id', 'cost.dominant'], ['cmi.interactions.0.type', 'choice'],
    ['cmi.interactions.0.timestamp', '2026-11-28T10:00:00.000Z'], ['cmi.interactions.0.description', 'Which term dominates?'],
    ['cmi.interactions.0.learner_response', 'softmax'], ['cmi.interactions.0.result', 'correct']]);
});

test('mastery: the LMS\'s value wins (2004 scaled), else the author\'s; out of range is none', () => {
  assert.equal(masteryOf('1.2', '70', '80'), 70);
  assert.equal(masteryOf('1.2', '', '80'), 80);
  assert.equal(masteryOf('2004', '0.6', '80'), 60);
  assert.equal(masteryOf('2004', '', null), null);
  assert.equal(masteryOf('1.2', '', '120'), null);
  assert.deepEqual(['scorm12', '1.2', '2004', 'SCORM2004', '3'].map(versionOf), ['1.2', '1.2', '2004', '2004', null]);
});

test('suspend_data round-trips the record, fits SCORM 1.2 for every exercise, and ignores junk', () => {
  const record = { 'a.one': { attempts: 3, correct: true, first: false, revealed: false }, 'a.two': { attempts: 1, correct: false, first: false, revealed: false },
    'a.three': { attempts: 0, correct: false, first: false, revealed: true } };
  assert.deepEqual(decodeSuspend(encodeSuspend(record)), record);
  // Written before the reveal was kept (three flags): used-up tries without a right answer read as shown, as the page reads its own.
  assert.deepEqual(decodeSuspend('{"v":1,"r":{"a":[2,0,0],"b":[1,1,1]}}'), { a: { attempts: 2, correct: false, first: false, revealed: true }, b: { attempts: 1, correct: true, first: true, revealed: false } });
  const every = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`efficient.linear-crossover-${i}`, { attempts: 99, correct: true, first: true }]));
  assert.ok(encodeSuspend(every).length < 4096, `${encodeSuspend(every).length} characters`);
  for (const junk of ['', 'not json', '{"v":2,"r":{"a":[1,1,1]}}', '{"v":1,"r":{"a":[0,1,1,0],"b":"x","c":[-1,0,0,1]}}', 'null']) assert.deepEqual(decodeSuspend(junk), {}, junk);
});

test('npm run scorm: the options are checked, each refusal naming the problem', async () => {
  const { readOptions } = await import('../../scripts/scorm.mjs');
  const refused = [
    [[], /--chapter is required: one of attention, .*reference/],
    [['--chapter', 'nope'], /--chapter nope is not a chapter/],
    [['--chapter', 'reference'], /chapter reference with these options shows no exercise/],
    [['--chapter', 'cost', '--exercises', 'cost.dominant,cost.nope'], /--exercises names no exercise cost\.nope/],
    [['--chapter', 'cost', '--lock', 'd_model,bogus'], /--lock names bogus, which is not a setting/],
    [['--chapter', 'cost', '--theme', 'purple'], /the view is not valid: theme=purple is not one of/],
    [['--chapter', 'cost', '--mastery', '101'], /--mastery "101" is not a score from 0 to 100/],
    // an unset shell variable, hexadecimal, an exponent, more decimals than a manifest keeps plainly
    ...['', ' ', '0x50', '1e-7', '33.333', 'Infinity', '80%'].map((m) => [['--chapter', 'cost', '--mastery', m], /--mastery ".*" is not a score from 0 to 100 \(a plain number/]),
    [['--chapter', 'cost', '--bogus', '1'], /Unknown option '--bogus'/],
  ];
  for (const [argv, message] of refused) assert.throws(() => readOptions(argv), message, argv.join(' '));
  const ok = readOptions(['--chapter', 'cost', '--exercises', 'cost.dominant', '--lock', 'd_model', '--label', 'Cost & co']);
  assert.deepEqual([ok.ids, ok.mastery, ok.title, ok.hash], [['cost.dominant'], 80, 'Cost & co', 'embed=1&chapter=cost&exercises=cost.dominant&lock=d_model&label=Cost%20%26%20co']);
  assert.deepEqual(['0', '72.5', '100', ' 33.33 '].map((m) => readOptions(['--chapter', 'cost', '--mastery', m]).mastery), [0, 72.5, 100, 33.33]);
  assert.deepEqual(readOptions(['--chapter', 'gqa']).ids, ['gqa.kv-head-of', 'gqa.cache-per-token', 'gqa.preset-saving', 'gqa.wk-params', 'gqa.sketch-shared-keys']);
});

test('npm run scorm refuses a folder that is not a whole build, naming the file it lacks', async () => {
  const { readOptions, writePackages } = await import('../../scripts/scorm.mjs');
  const { mkdtemp, writeFile, rm, readdir } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const dir = await mkdtemp(`${tmpdir()}/attention-scorm-`);
  try {
    await writeFile(`${dir}/index.html`, '<!doctype html>');
    const options = readOptions(['--chapter', 'cost', '--dist', dir, '--out', `${dir}/out`]);
    await assert.rejects(writePackages(options), /is not a whole build of the page \(no page\.js\)/);
    assert.deepEqual(await readdir(dir), ['index.html'], 'nothing written');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('npm run scorm --lesson: the author\'s file goes into the package, the page opens with it, its exercises are graded', async () => {
  const { readOptions, writePackages, LESSON_IN_PACKAGE } = await import('../../scripts/scorm.mjs');
  const { mkdtemp, writeFile, rm, readFile } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { unzipSync, strFromU8 } = await import('fflate');
  const dir = await mkdtemp(`${tmpdir()}/attention-scorm-lesson-`);
  try {
    const lesson = { text: { 'chapter.attention.scores.p1': 'AN AUTHOR\'S WORDS.' },
      exercises: [{ id: 'course.total', chapter: 'cost', kind: 'number', prompt: 'How many parameters has this layer?', answer: { quantity: 'params.total' } }] };
    await writeFile(`${dir}/lesson.json`, JSON.stringify(lesson));
    await writeFile(`${dir}/bad.json`, JSON.stringify({ exercises: [{ ...lesson.exercises[0], chapter: 'nope' }] }));
    assert.throws(() => readOptions(['--chapter', 'cost', '--exercises', 'course.total']), /--exercises names no exercise course\.total .*come with --lesson/);
    assert.throws(() => readOptions(['--chapter', 'cost', '--lesson', `${dir}/missing.json`]), /--lesson .*missing\.json could not be read \(ENOENT\)/);
    assert.throws(() => readOptions(['--chapter', 'cost', '--lesson', `${dir}/bad.json`]), /--lesson .*bad\.json: the lesson file is refused: exercises\[0\]\.chapter: expected one of/);
    assert.ok(readOptions(['--chapter', 'cost', '--lesson', `${dir}/lesson.json`]).ids.includes('course.total'), 'the chapter\'s exercises and the lesson\'s');
    const options = readOptions(['--chapter', 'cost', '--exercises', 'cost.dominant,course.total', '--lesson', `${dir}/lesson.json`, '--out', `${dir}/out`]);
    assert.deepEqual(options.ids, ['cost.dominant', 'course.total']);
    for (const { path } of await writePackages(options)) {
      const files = unzipSync(await readFile(path));
      assert.deepEqual(JSON.parse(strFromU8(files[LESSON_IN_PACKAGE])), lesson, `${path}: the lesson file, as given`);
      assert.match(strFromU8(files['scorm.html']), /index\.html\?lms=(1\.2|2004)&mastery=80&lesson=lesson\.json#embed=1&chapter=cost/);
      assert.match(strFromU8(files['imsmanifest.xml']), /<file href="lesson\.json"\/>/);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the manifests and the launch page escape the author\'s title', async () => {
  const { manifest12, manifest2004, launchPage } = await import('../../scripts/scorm_manifest.mjs');
  const options = { chapter: 'cost', title: 'Cost <&> "quotes"', mastery: 75, files: ['scorm.html', 'a&b.js'] };
  for (const xml of [manifest12(options), manifest2004(options)]) {
    assert.ok(xml.includes('<title>Cost &lt;&amp;&gt; &quot;quotes&quot;</title>'));
    assert.ok(xml.includes('<file href="a&amp;b.js"/>'));
  }
  assert.ok(manifest12(options).includes('<adlcp:masteryscore>75</adlcp:masteryscore>'));
  assert.ok(manifest2004(options).includes('<imsss:minNormalizedMeasure>0.75</imsss:minNormalizedMeasure>'));
  const launch = launchPage({ title: '</script><b>', version: '2004', mastery: 75, hash: 'embed=1&label=%3C%2Fscript%3E' });
  assert.ok(!launch.includes('</script><b>'), launch);
  assert.match(launch, /location\.replace\("index\.html\?lms=2004&mastery=75#embed=1&label=%3C%2Fscript%3E"\)/);
});

test('the API is found up the parent frames (past a window of another origin), then through the opener, within a bound', async () => {
  const { findApi } = await import('../../web/src/lms/api.js');
  /** A chain of `depth` windows under `top`: returns the innermost. */
  const chain = (top, depth) => {
    let win = top;
    for (let i = 0; i < depth; i += 1) win = { parent: win, top };
    return win;
  };
  const lms = { LMSInitialize() {} };
  const top = { API: lms };
  top.parent = top;
  top.top = top;
  assert.equal(findApi(chain(top, 3), 'API'), lms);
  assert.equal(findApi(chain(top, 3), 'API_1484_11'), null, 'the other version\'s name is not taken for it');
  assert.equal(findApi(chain(top, 12), 'API'), null, 'deeper than the bound');
  // A frame of another origin in between: reading it throws; the search passes over it.
  const foreign = { get API() { throw new Error('cross-origin'); }, parent: top, top };
  assert.equal(findApi({ parent: foreign, top }, 'API'), lms);
  // A popup: no API in its own frames, the LMS's window opened it.
  const popupTop = { opener: chain(top, 1) };
  popupTop.parent = popupTop;
  popupTop.top = popupTop;
  assert.equal(findApi(chain(popupTop, 2), 'API'), lms);
  const none = { parent: null, top: null, opener: null };
  assert.equal(findApi(none, 'API'), null);
});
