// Reading a learner's answer and comparing it with the core's (pure, no DOM). Four kinds (and a step's
// stage, read and compared as a number): a number
// (within a stated tolerance), a shape ("2×4×8×8", "2x4x8x8", "[2, 4, 8, 8]"…), a choice (its key or its
// label) and a cell of a heatmap (the key index, or "row,col"). An answer that cannot be read is an
// error naming the problem, never a wrong attempt: a typo should not cost the learner a try.

import { parseSketch, sketchMatches } from './sketch_answer.js';
import { parseDesign, designMatches } from './design_answer.js';

export const KINDS = Object.freeze(['number', 'shape', 'choice', 'cell', 'sketch', 'design', 'step']);

/** "16,640", "16 640", "1.6e4", "−3", "1/10" → a finite number, or throws naming what was given. */
export function parseNumber(value, id) {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  const text = String(value ?? '').trim().replace(/[\s,_\u202f\u00a0]/g, '').replace(/^[\u2212]/, '-');
  const fraction = /^(-?[\d.]+(?:e-?\d+)?)\/([\d.]+(?:e-?\d+)?)$/i.exec(text); // "1/10": a learner's way to write a weight
  const n = text === '' ? NaN : fraction ? Number(fraction[1]) / Number(fraction[2]) : Number(text);
  if (!Number.isFinite(n)) throw new Error(`${id} expects a number, got “${String(value ?? '').slice(0, 40)}”`);
  return n;
}

/** "2×4×8×8", "2 x 4 x 8 x 8", "(2, 4, 8, 8)", [2, 4, 8, 8] → [2, 4, 8, 8], or throws. */
export function parseShape(value, id) {
  const bad = () => new Error(`${id} expects a shape such as 2×4×8×8, got “${String(value ?? '').slice(0, 40)}”`);
  if (Array.isArray(value)) {
    if (!value.length || !value.every((d) => Number.isInteger(d) && d >= 0)) throw bad();
    return value.slice();
  }
  const text = String(value ?? '').trim().replace(/^[[(]\s*|\s*[\])]$/g, '');
  if (!/^\d+(\s*[×x*,;]\s*\d+|\s+\d+)*$/i.test(text)) throw bad();
  return text.split(/\s*[×x*,;]\s*|\s+/i).map(Number);
}

/** A choice's key, or its label (case and spacing ignored), or throws listing the keys. */
export function parseChoice(value, choices, id) {
  const norm = (s) => String(s ?? '').trim().toLowerCase().replace(/\s+/g, ' ');
  const found = choices.find((c) => norm(c.key) === norm(value)) ?? choices.find((c) => norm(c.label) === norm(value));
  if (!found) throw new Error(`${id} expects one of ${choices.map((c) => `“${c.key}”`).join(', ')}, got “${String(value ?? '').slice(0, 40)}”`);
  return found.key;
}

/**
 * A cell of the exercise's grid ({ rows, cols, row }: the query row asked about): the key index j,
 * "i,j", [i, j] or { row, col }; a row other than the one asked is an error, as is a cell off the grid.
 */
export function parseCell(value, grid, id) {
  let row = grid.row, col;
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    row = value.row ?? row;
    col = value.col;
  } else if (Array.isArray(value)) {
    [row, col] = value.length === 1 ? [row, value[0]] : value;
  } else {
    const parts = String(value ?? '').trim().replace(/^[[(]\s*|\s*[\])]$/g, '').split(/\s*[,;]\s*|\s+/).filter(Boolean);
    if (parts.length === 1) col = parts[0];
    else if (parts.length === 2) [row, col] = parts;
  }
  row = Number(row);
  col = Number(col);
  if (!Number.isInteger(row) || !Number.isInteger(col)) {
    throw new Error(`${id} expects a cell: the key's index 0…${grid.cols - 1} in row ${grid.row}, or "row,col"; got “${String(JSON.stringify(value) ?? value).slice(0, 40)}”`);
  }
  if (row !== grid.row) throw new Error(`${id} asks about query row ${grid.row}; the cell given is in row ${row}`);
  if (col < 0 || col >= grid.cols) throw new Error(`${id}: key ${col} is outside 0…${grid.cols - 1}`);
  return col;
}

/** The answer read for an exercise instance (see catalogue.js), or throws. */
export function readAnswer(instance, value) {
  switch (instance.kind) {
    case 'number': case 'step': return parseNumber(value, instance.id); // a step: its stage's number
    case 'shape': return parseShape(value, instance.id);
    case 'choice': return parseChoice(value, instance.choices, instance.id);
    case 'cell': return parseCell(value, instance.grid, instance.id);
    case 'sketch': return parseSketch(value, instance.sketch.keys.length, instance.id);
    case 'design': return parseDesign(value, instance.design.fields, instance.id);
    default: throw new Error(`${instance.id} has an unknown kind ${instance.kind}`);
  }
}

/**
 * Whether `given` (readAnswer's) matches the core's `expected`. A number: |given − expected| ≤
 * tolerance.abs, or ≤ tolerance.rel·|expected| (edges included); a shape: the same dimensions in order;
 * a choice: the same key; a cell: `expected` lists every key that carries the row's largest weight.
 */
export function matches(instance, given, expected) {
  switch (instance.kind) {
    case 'number': case 'step': {
      const { abs = 0, rel = 0 } = instance.tolerance ?? {};
      // A hair of slack, so that the stated edge counts as typed: 0.101 − 0.1 is 0.0010000000000000009 in doubles.
      const off = Math.abs(given - expected), slack = 1e-9 * Math.max(Math.abs(expected), Math.abs(given), 1e-300);
      return off <= abs + slack || off <= rel * Math.abs(expected) + slack;
    }
    case 'shape': return given.length === expected.length && given.every((d, i) => d === expected[i]);
    case 'choice': return given === expected;
    case 'cell': return expected.includes(given);
    case 'sketch': return sketchMatches(instance, given, expected);
    case 'design': return designMatches(instance, given, expected);
    default: return false;
  }
}

/** How a tolerance reads in a prompt: "exact", "within ±0.01", "within 15 %". */
export function toleranceText({ abs = 0, rel = 0 } = {}) {
  if (rel) return `within ${+(rel * 100).toFixed(2)} %`;
  if (abs) return `within ±${abs}`;
  return 'exact';
}
