// The model table: each model's head count, width, key/value heads and layers, as the lesson lists them.
#pragma once
#include <string>
#include <vector>

namespace attn {

struct ModelPreset {
  std::string name;
  int n_heads = 0, d_model = 0, d_k = 0;
  std::string parameters;  // the whole model's size, as the table gives it
  int n_kv_heads = 0;      // key/value heads (grouped-query attention), n_heads otherwise
  int n_layers = 0;        // attention layers of the published model (decoder layers for the 2017 Transformer)
  std::string note;
};
std::vector<ModelPreset> model_presets();

}  // namespace attn
