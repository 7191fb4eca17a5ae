// How an exercise's answer is named outside the playground (pure): the interaction type shared by
// SCORM and xAPI, and the learner's response (or the engine's answer) as text in that type's format.
// SCORM's numeric and choice formats are strict (a plain decimal, an identifier), so a value that does
// not fit is sent as fill-in text instead of being refused by the LMS.

/**
 * The playground's kinds (lesson/exercises/answers.js KINDS) as interaction types: a step's answer is a
 * number; a sketch (a row of weights) and a design (a head's choices) go as fill-in text.
 */
const TYPE_OF_KIND = Object.freeze({ number: 'numeric', step: 'numeric', cell: 'numeric', choice: 'choice', shape: 'fill-in', sketch: 'fill-in', design: 'fill-in' });

/** A number as a plain decimal (no exponent; at most 10 digits before the point), or null. */
export function decimalText(value) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  let text = String(Number(value.toPrecision(12)));
  if (/e/i.test(text)) text = value.toFixed(18).replace(/\.?0+$/, '');
  return /^-?\d{1,10}(\.\d{1,18})?$/.test(text) ? text : null;
}

/** The kind an answer's value suggests, when the host does not know it (an iframe's message carries none). */
export function kindOfAnswer(answer) {
  if (Array.isArray(answer)) return 'shape';
  if (typeof answer === 'number') return 'number';
  return 'choice';
}

/**
 * A value as the text of an interaction `type`: numeric, choice (an identifier) or fill-in (a shape as
 * 2x4x8x8, a sketch's row as 0.1,0.9, a design's choices as JSON, anything else as its text).
 */
export function responseText(type, value, kind) {
  if (type === 'numeric') return decimalText(value);
  if (type === 'choice') return /^[\w.\-:]{1,250}$/.test(String(value)) ? String(value) : null;
  if (Array.isArray(value)) return value.join(kind === 'sketch' ? ',' : 'x').slice(0, 250);
  if (value && typeof value === 'object') return JSON.stringify(value).slice(0, 250);
  return String(value ?? '').slice(0, 250);
}

/**
 * An answer's { type, response }: the kind's interaction type, or fill-in when the value does not fit
 * that type's format (a number too large for a SCORM decimal, a choice key that is not an identifier).
 */
export function interactionOf(kind, answer) {
  const type = TYPE_OF_KIND[kind ?? kindOfAnswer(answer)] ?? 'fill-in';
  const response = responseText(type, answer, kind);
  return response === null ? { type: 'fill-in', response: responseText('fill-in', answer, kind) } : { type, response };
}
