// The share builder's snippets carry a learner's text as data that cannot end the block it sits in
// (issue 23, item 4): a line of three backticks, blank lines, quotes, a closing tag, a script, an emoji,
// U+2028 and the rest stay inside one value, each block is closed exactly once at its end, and reading
// the value back (JSON.parse for MyST, Python's own ast.literal_eval for the Python class) gives exactly
// the original text. The HTML snippets are decoded by a browser's parser in
// tests/browser/hostile_links.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { snippets, attributesOf } from '../../web/src/page/snippets.js';
import { builderState } from '../../web/src/page/share_view.js';
import { defaults, withChanges } from '../../web/src/model/schema.js';
import { HOSTILE } from './hostile_texts.mjs';


const BASE = 'https://example.org/attention/';
const snippetsOf = (text) => {
  const state = builderState(withChanges(defaults(), { text, text_kv: `kv ${text}`, padding: text }), {});
  return { state, texts: snippets(state, { base: BASE }) };
};

test('Quarto: one ```{=html} block, closed once at its end, with no blank line and no backtick inside', () => {
  for (const text of HOSTILE) {
    const lines = snippetsOf(text).texts.quarto.split('\n');
    assert.equal(lines[0], '```{=html}', JSON.stringify(text));
    assert.equal(lines.at(-1), '```', JSON.stringify(text));
    assert.equal(lines.length, 4, `the block holds the script line and the element line only: ${JSON.stringify(lines)}`);
    for (const line of lines.slice(1, -1)) {
      assert.ok(!line.includes('`'), `no backtick inside the block: ${line}`);
      assert.notEqual(line.trim(), '', 'no blank line (it would end a raw HTML block)');
    }
  }
});

test('element and iframe snippets: every value on one line, with no raw quote, backtick, tag or line separator', () => {
  for (const text of HOSTILE) {
    const { texts } = snippetsOf(text);
    for (const key of ['element', 'iframe']) {
      const lines = texts[key].split('\n');
      assert.equal(lines.length, 2, `${key}: two lines, ${JSON.stringify(texts[key])}`);
      assert.ok(lines.every((line) => line.trim() !== ''), `${key}: no blank line`);
      // Only the two tags this snippet writes, each value in double quotes holding none of " < > ` or a separator.
      const value = '"[^"<>`\\u2028\\u2029\\r\\n]*"';
      const shape = key === 'element'
        ? new RegExp(`^<attention-playground( [a-z_]+=${value})*></attention-playground>$`, 'u')
        : new RegExp(`^<iframe( [a-z_]+=${value})*></iframe>$`, 'u');
      assert.match(lines[key === 'element' ? 1 : 0], shape);
      assert.equal(texts[key].split('</script').length - 1, 1, `${key}: the only </script is the script line's own`);
    }
  }
});

/** MyST and Python carry even NUL, which HTML cannot. */
const WITH_NUL = [...HOSTILE, 'nul\u0000here'];

test('MyST: one directive, closed once at its end; its JSON line parses back to exactly the attributes', () => {
  for (const text of WITH_NUL) {
    const { state, texts } = snippetsOf(text);
    const lines = texts.myst.split('\n');
    assert.equal(lines.length, 3, JSON.stringify(texts.myst));
    assert.equal(lines[0], `:::{anywidget} ${BASE}attention-playground.js`);
    assert.equal(lines[2], ':::');
    assert.ok(!/[<>`\u2028\u2029]/.test(lines[1]), `no markup, backtick or separator raw in the JSON: ${lines[1]}`);
    const back = JSON.parse(lines[1]);
    assert.deepEqual(back, attributesOf(state));
    assert.equal(back.text, text);
  }
});

test('Python: valid source whose string literals evaluate (ast.literal_eval) to exactly the original values', () => {
  const cases = WITH_NUL.map((text) => {
    const { state, texts } = snippetsOf(text);
    return { source: texts.python, want: attributesOf(state) };
  });
  for (const { source } of cases) {
    assert.ok(!source.includes('```') && !source.includes('</script'), `no fence or closing script tag raw: ${source}`);
  }
  // Python reads each class body: every `name = traitlets.X(<literal>)` gives its literal's value.
  const reader = [
    'import ast, json, sys',
    'out = []',
    'for source in json.load(sys.stdin):',
    '    tree = ast.parse(source)',
    '    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef))',
    '    values = {}',
    '    for s in cls.body:',
    '        if isinstance(s, ast.Assign) and s.targets[0].id != "_esm":',
    '            values[s.targets[0].id] = str(ast.literal_eval(s.value.func.value.args[-1]))', // Enum(choices, value): the value is last; Int/Float: str() gives its digits
    '    out.append(values)',
    'sys.stdout.write(json.dumps(out, ensure_ascii=True))',
  ].join('\n');
  const got = JSON.parse(execFileSync('python3', ['-c', reader], { input: JSON.stringify(cases.map((c) => c.source)) }).toString());
  cases.forEach(({ want }, i) => assert.deepEqual(got[i], want, `case ${i}: ${JSON.stringify(WITH_NUL[i])}`));
});
