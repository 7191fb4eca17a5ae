// Prints the lesson's worked examples as the engine recomputes them, with ✓ or ✗ against
// LESSON.md's figures. A quick native check that needs no browser.
#include <cstdio>

#include "labs/lesson_examples.h"
#include "core/simd.h"

int main() {
  int failed = 0;
  std::printf("Attention Playground: the lesson's worked examples (kernels: %s)\n", attn::kernel_isa());
  for (const attn::LessonExample& ex : attn::lesson_examples()) {
    std::printf("\n%s  %s\n", ex.id.c_str(), ex.title.c_str());
    for (const attn::LessonFigure& f : ex.figures) {
      failed += f.ok ? 0 : 1;
      std::printf("  %s %-44s %-14s%s%s\n", f.ok ? "\u2713" : "\u2717", f.label.c_str(), f.computed.c_str(),
                  f.expected.empty() ? "" : "lesson: ", f.expected.c_str());
    }
    if (!ex.note.empty()) std::printf("  %s\n", ex.note.c_str());
  }
  std::printf("\n%s\n", failed ? "some figures differ from the lesson" : "every figure matches the lesson");
  return failed ? 1 : 0;
}
