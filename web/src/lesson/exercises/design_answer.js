// Reading and grading a `design` answer (issue 36): a record of a few integers the learner sets (e.g. the
// query q = (a, b) of a 2-d head) to make a head do a stated job. The engine runs every allowed record
// (the exercise's calls) and the reveal lists those that do the job (`accept`); the learner's record is
// right when it is one of them. Pure, no DOM.

/** { a: 1, b: -2 }, "1, -2" or [1, -2] → { a, b } within each field's range, or throws naming the problem. */
export function parseDesign(value, fields, id) {
  let values;
  if (value && typeof value === 'object' && !Array.isArray(value)) values = fields.map((f) => value[f.name]);
  else if (Array.isArray(value)) values = value;
  else values = String(value ?? '').trim().replace(/^[[(]\s*|\s*[\])]$/g, '').split(/\s*[,;]\s*|\s+/).filter(Boolean);
  if (values.length !== fields.length) throw new Error(`${id} expects ${fields.map((f) => f.name).join(' and ')}, got “${String(JSON.stringify(value) ?? value).slice(0, 40)}”`);
  const out = {};
  fields.forEach((f, i) => {
    const n = typeof values[i] === 'number' ? values[i] : Number(String(values[i] ?? '').replace(/^\u2212/, '-'));
    if (!Number.isInteger(n) || n < f.min || n > f.max) throw new Error(`${id}: ${f.name} must be a whole number from ${f.min} to ${f.max}, got “${String(values[i]).slice(0, 20)}”`);
    out[f.name] = n;
  });
  return out;
}

/** Whether a record is among the accepted ones. */
export const designMatches = (instance, given, accept) => accept.some((r) => instance.design.fields.every((f) => r[f.name] === given[f.name]));
