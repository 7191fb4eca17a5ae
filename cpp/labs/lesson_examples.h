// The lesson's worked examples as data, with the code that recomputes every figure from the core's
// analysis functions, so the page can show each one with a ✓. A lab (the labs' module, loaded by the
// examples panel and the preset menu, never by the first view); the model table is the core's (model_presets.h).
#pragma once
#include <string>
#include <vector>

#include "core/dims.h"

namespace attn {

/// One figure of a worked example: what LESSON.md writes and what the engine computes,
/// both in the lesson's format ("128×64", "32,768", "34.4B", "16.8 MB").
struct LessonFigure {
  std::string label;
  std::string expected;  // empty when the lesson gives no figure (shown for information)
  std::string computed;
  double value;          // the computed number (0 for shapes)
  bool ok;               // computed == expected (true when nothing is expected)
  bool in_lesson = true; // the lesson's text prints `expected`; false: a check of ours (LESSON.md's exact
                         // count, which the lesson itself never prints), shown as computed, not as the lesson's
};

struct LessonExample {
  std::string id;     // "E1", "E2", "E3", "P1", "P4"
  std::string title;
  MhaConfig config;   // loads the example into the playground
  int batch = 1, n = 0;  // sequence length (self-attention); 0 where the example has none
  std::vector<LessonFigure> figures;
  std::string note;   // what a learner should notice, e.g. how the lesson's count differs
};

/// Every worked example, recomputed now.
std::vector<LessonExample> lesson_examples();

/// "34.4B": billions with one decimal, as the lesson writes FLOP counts.
std::string format_billions(double value);

}  // namespace attn
