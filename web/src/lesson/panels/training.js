// The words of the training panel (features/training/), by id: lesson/text.js serves them (text(id,
// values) fills each {name}), and an author's or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'training.about_lab': 'What the lab trains',
  'training.more_settings': 'Sample length, learning rate, seed',
  'training.preview_waiting': 'Training a copy {steps} steps to preview this learning rate…',
  'training.preview':
    'Before you train: a copy of this model trained {steps} steps at lr = {lr} reaches {accuracy} held-out accuracy. Each Adam step moves every weight by up to about lr: too small a rate learns slowly, too large a one overshoots.',
  'training.preview_failed': 'The preview could not train: {message}',
  'training.tokens_per_sample': 'tokens per sample',
  'training.adam_s_learning_rate': 'Adam’s learning rate',
  'training.initial_weights_data': 'initial weights and data',
  'training.previous_token': 'the previous token',
  'training.first_token': 'the first token',
  'training.mirrored_position': 'the mirrored position',
  'training.pair_holding_key_asked': 'the pair holding the key asked for',
  'training.weight': '{value} of its weight on {part}',
  'training.heads_have_split_work': 'The heads have split the work: {value}; held-out accuracy {acc}.',
  'training.one_head_has_one':
    'One head has one softmax per row, so it cannot put most of its weight on two positions at once: held-out accuracy {acc}. Try two heads.',
  'training.no_head_has_specialised':
    'No head has specialised on each relation yet (held-out accuracy {acc}).',
  'training.head_has_learnt_read': 'Head {value} has learnt to read {part}; held-out accuracy {acc}.',
  'training.no_head_reads_with':
    'No head reads {part} with most of its weight yet; held-out accuracy {acc}.',
  'training.use_playground': 'Use in the playground',
  'training.waiting_engine': 'Waiting for the engine…',
  'training.embedding_plus_sinusoidal_position':
    'Embedding plus sinusoidal position, one multi-head attention layer, a linear read-out: only attention moves information between positions, ',
  'training.what_learns_shows_maps':
    'so what it learns shows in the maps. Adam trains it in the compute worker on fresh samples ({TRAIN_BATCH} per step, {TRAIN_VOCAB} symbols) drawn from the seed.',
  'training.training_loss_accuracy_step': 'Training: loss and accuracy, step {steps}',
  'training.training_lab_every_head': 'Training lab: every head’s map of sample {sample}, step {steps}',
  'training.press_train_go': '{message}; press Train to go on',
  'training.paused_steps_lab_s': 'Paused at {steps} steps, the lab’s limit.',
  'training.loss_nats_log': 'loss (nats, log)',
  'training.head_attention_weights_sample': 'head {value}: attention weights of the sample',
  'training.sample_wanted_predicted': 'Sample {sample}: {value}. {value2}.',
  'training.rows_queries_columns_keys': 'Rows are queries, columns keys.',
  'training.held_out_accuracy_samples': 'held-out accuracy {accuracy} ({samples} samples, never trained on)',
  'training.loss_after_you_answer': 'shown after you answer the exercise on it',
  'training.maps_after_you_answer': 'The trained maps are shown after you answer the sketch exercise on them (step 2 of this chapter): draw your prediction first.',
  'training.compute_worker_restarted_training': ' · the compute worker restarted, so training began again',
  'training.curves_could_not_drawn': 'The curves could not be drawn: {message}',
  'training.task_s_default': 'the task’s default',
  'training.fix_highlighted_settings_train': 'Fix the highlighted settings to train.',
});
