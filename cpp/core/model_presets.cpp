// The model table (the lesson's models and their sizes) as data, for the preset menu, the models and
// GQA panels and the KV cache's examples: the first view's core holds it (the worked examples that
// recompute the lesson's figures are the labs': labs/lesson_examples.cpp).
#include "model_presets.h"

#include <utility>

namespace attn {
namespace {

// A row of the model table, filled by field name (three of its numbers are head counts and
// widths that a swapped pair would silently exchange).
ModelPreset preset(std::string name, std::string parameters) {
  ModelPreset p;
  p.name = std::move(name);
  p.parameters = std::move(parameters);
  return p;
}

}  // namespace

std::vector<ModelPreset> model_presets() {
  std::vector<ModelPreset> all;
  auto add = [&](ModelPreset p) { all.push_back(std::move(p)); };
  {
    ModelPreset p = preset("Transformer (base, 2017)", "65M");
    p.n_heads = 8;
    p.d_model = 512;
    p.d_k = 64;
    p.n_kv_heads = 8;
    p.n_layers = 6;
    add(p);
  }
  {
    ModelPreset p = preset("BERT-Base", "110M");
    p.n_heads = 12;
    p.d_model = 768;
    p.d_k = 64;
    p.n_kv_heads = 12;
    p.n_layers = 12;
    add(p);
  }
  {
    ModelPreset p = preset("BERT-Large", "340M");
    p.n_heads = 16;
    p.d_model = 1024;
    p.d_k = 64;
    p.n_kv_heads = 16;
    p.n_layers = 24;
    add(p);
  }
  {
    ModelPreset p = preset("GPT-2 (small)", "117M");
    p.n_heads = 12;
    p.d_model = 768;
    p.d_k = 64;
    p.n_kv_heads = 12;
    p.n_layers = 12;
    add(p);
  }
  {
    ModelPreset p = preset("GPT-3", "175B");
    p.n_heads = 96;
    p.d_model = 12288;
    p.d_k = 128;
    p.n_kv_heads = 96;
    p.n_layers = 96;
    add(p);
  }
  {
    ModelPreset p = preset("LLaMA-7B", "7B");
    p.n_heads = 32;
    p.d_model = 4096;
    p.d_k = 128;
    p.n_kv_heads = 32;
    p.n_layers = 32;
    add(p);
  }
  {
    ModelPreset p = preset("LLaMA-70B", "70B");
    p.n_heads = 64;
    p.d_model = 8192;
    p.d_k = 128;
    p.n_kv_heads = 8;
    p.n_layers = 80;
    p.note = "uses grouped-query attention: 64 query heads share 8 key/value heads";
    add(p);
  }
  return all;
}

}  // namespace attn
