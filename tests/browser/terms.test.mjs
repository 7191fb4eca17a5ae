// The term lists (ui/term_list.js): a symbol's meaning shows on mouse hover and hides when the mouse leaves,
// shows on a tap and hides on a second tap, shows on keyboard focus and hides on Escape; it is the
// button's description (aria-describedby) and its words are the lesson's (lesson/panels/term_list.js).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage, chapterDrawn, newContext } from './harness.mjs';
import { text } from '../../web/src/lesson/panels/term_list.js';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

/** { open, expanded, said } of term `key`: its meaning visible, aria-expanded, the text it is described by. */
const stateOf = (page, key) => page.evaluate((k) => {
  const button = playgroundRoot().querySelector(`.term[data-term="${k}"]`);
  const tip = playgroundRoot().getElementById(button.getAttribute('aria-describedby'));
  return { open: tip.checkVisibility(), expanded: button.getAttribute('aria-expanded'), said: tip.textContent, role: tip.getAttribute('role') };
}, key);

test('terms: hover, keyboard focus and Escape show and hide a meaning (efficient chapter, B_r, B_c)', async () => {
  const page = await openPage(h, '#chapter=efficient', { asIs: true, waitForResult: false });
  try {
    await chapterDrawn(page);
    const br = page.locator('.term[data-term="B_r"]');
    await br.waitFor();
    assert.equal((await stateOf(page, 'B_r')).open, false, 'hidden at first');
    assert.equal((await stateOf(page, 'B_r')).said, text('term.B_r.means'));
    assert.equal((await stateOf(page, 'B_r')).role, 'tooltip');
    await br.hover();
    assert.deepEqual(await stateOf(page, 'B_r').then((s) => [s.open, s.expanded]), [true, 'true'], 'hover shows it');
    await page.mouse.move(0, 0);
    assert.equal((await stateOf(page, 'B_r')).open, false, 'leaving hides it');
    // Keyboard: Tab from B_r reaches B_c, whose meaning shows; Escape hides it.
    await br.focus();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => playgroundRoot().activeElement?.dataset.term), 'B_c');
    assert.equal((await stateOf(page, 'B_c')).open, true, 'keyboard focus shows it');
    await page.keyboard.press('Escape');
    assert.equal((await stateOf(page, 'B_c')).open, false, 'Escape hides it');
    await page.keyboard.press('Enter');
    assert.equal((await stateOf(page, 'B_c')).open, true, 'Enter pins it');
    await page.keyboard.press('Tab');
    assert.equal((await stateOf(page, 'B_c')).open, false, 'leaving it hides it');
    assert.deepEqual(page.problems, []);
  } finally {
    await page.closeAll();
  }
});

test('terms: a tap shows a meaning and a second tap hides it (a phone, the positions chapter, its encoding step)', async () => {
  const context = await newContext(h, { viewport: { width: 375, height: 800 }, hasTouch: true, isMobile: true });
  try {
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${h.url}#chapter=positions&step=2`); // ω: the encoding's term, in its step
    await chapterDrawn(page);
    const omega = page.locator('.term[data-term="omega"]');
    await omega.tap();
    const shown = await stateOf(page, 'omega');
    assert.equal(shown.open, true, 'a tap shows it');
    assert.match(shown.said, /10000/, 'its words: the lesson\'s definition of ω_f');
    await omega.tap();
    assert.equal((await stateOf(page, 'omega')).open, false, 'a second tap hides it');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('terms: the positions chapter shows each symbol in the step that introduces it (ω in the encoding, θ, m_h, i − j on the logits); Reference shows all', async () => {
  const expected = [
    ['#chapter=positions&step=2', ['omega', 'pos']],
    ['#chapter=positions&step=3', ['offset', 'slope', 'theta']],
    // Reference with the maps and this panel alone (panels= beside a chapter picks the panels; the panel's
    // part follows the chapter's step, Reference's one): its other 24 panels are not what is read here.
    ['#chapter=reference&panels=heatmaps,positional', ['offset', 'omega', 'pos', 'slope', 'theta']],
  ];
  for (const [hash, keys] of expected) {
    const page = await openPage(h, hash, { asIs: true, waitForResult: false });
    try {
      await chapterDrawn(page);
      await page.locator('[data-panel="positional"] .term').first().waitFor({ state: 'attached' });
      const shown = await page.evaluate(() => [...playgroundRoot().querySelectorAll('[data-panel="positional"] .term')]
        .filter((b) => b.checkVisibility()).map((b) => b.dataset.term).sort());
      assert.deepEqual(shown, keys, `${hash}: the positional panel's visible symbols`);
    } finally {
      await page.close();
    }
  }
});
