// Where a chapter told in steps places an exercise (issue 37): the step a test opens to show its card.
import { CHAPTER_DATA } from '../../web/src/lesson/chapters/index.js';

/** The 1-based step of `chapter` that places exercise `id` (1 when no step places it: every step shows them all). */
export function stepOfExercise(chapter, id) {
  const at = CHAPTER_DATA.find((c) => c.name === chapter)?.steps?.findIndex((s) => s.exercises?.includes(id)) ?? -1;
  return at + 1 || 1;
}
