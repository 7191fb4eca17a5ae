// The Embind surface of the lesson's worked examples (labs/lesson_examples.h), in the labs' module: the
// examples panel and the preset menu load it, the first view never does. One JSON envelope out, as every
// binding (embind.cpp's pattern); the JavaScript side is engine/labs_session.js's lessonExamples.
#include <emscripten/bind.h>

#include <string>
#include <vector>

#include "labs/lesson_examples.h"
#include "call.h"
#include "json.h"

namespace bind {
namespace {

void write_examples(Json& j, const std::vector<attn::LessonExample>& examples) {
  j.begin_array();
  for (const attn::LessonExample& ex : examples) {
    j.begin_object().field("id", ex.id).field("title", ex.title);
    j.key("config").begin_object()
        .field("d_model", ex.config.d_model).field("n_heads", ex.config.n_heads).field("bias", ex.config.bias)
        .field("batch", ex.batch).field("n", ex.n)
        .end_object();
    j.key("figures").begin_array();
    for (const attn::LessonFigure& f : ex.figures) {
      j.begin_object().field("label", f.label).field("expected", f.expected).field("computed", f.computed)
          .field("value", f.value).field("ok", f.ok).field("in_lesson", f.in_lesson).end_object();
    }
    j.end_array().field("note", ex.note).end_object();
  }
  j.end_array();
}

std::string lesson_examples() {
  return run([](Json& value) { write_examples(value, attn::lesson_examples()); });
}

}  // namespace
}  // namespace bind

EMSCRIPTEN_BINDINGS(lesson_examples) {
  using namespace emscripten;
  function("lessonExamples", &bind::lesson_examples);
}
