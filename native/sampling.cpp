// Sampling with llama.cpp's common sampler (the chain llama-server runs), and the raw
// distribution's top candidates, as llama-server reports them (pre-sampling probabilities).
#include "engine.h"

#include <algorithm>
#include <cmath>
#include <exception>

#include "sampling.h"
#include "nlohmann/json.hpp"

using json = nlohmann::json;

// Text as tokens the way llama-server tokenizes its reasoning tags: special tokens parsed, no BOS.
static llama_tokens tags(const llama_vocab * vocab, const std::string & text) {
  return common_tokenize(vocab, text, false, true);
}

// The reasoning budget's fields (ip_sampler), as llama-server's schema reads them: the budget's
// sampler (common/reasoning-budget.cpp, run by common_sampler) counts from the start tag and
// forces the message and the first end tag when the budget is spent.
static void reasoning_budget(const llama_vocab * vocab, const json & p, common_params_sampling & s) {
  s.reasoning_budget_tokens = p.value("reasoning_budget_tokens", s.reasoning_budget_tokens);
  s.reasoning_control = p.value("reasoning_control", s.reasoning_control);
  s.generation_prompt = p.value("generation_prompt", s.generation_prompt);
  const std::string start = p.value("reasoning_budget_start_tag", std::string());
  if (!start.empty()) s.reasoning_budget_start = tags(vocab, start);
  for (const auto & tag : p.value("reasoning_budget_end_tags", json::array()))
    if (!tag.get<std::string>().empty()) s.reasoning_budget_end.push_back(tags(vocab, tag.get<std::string>()));
  if (s.reasoning_budget_end.empty()) return;
  s.reasoning_budget_forced = s.reasoning_budget_end.front();
  const std::string message = p.value("reasoning_budget_message", std::string());
  if (!message.empty()) {
    const llama_tokens before = tags(vocab, message);
    s.reasoning_budget_forced.insert(s.reasoning_budget_forced.begin(), before.begin(), before.end());
  }
}

// The sampler for the current generation from a JSON object of llama-server's field names:
// temperature, dynatemp_range, dynatemp_exponent, top_k, top_p, min_p, min_keep, top_n_sigma,
// typical_p, xtc_probability, xtc_threshold, mirostat(_tau, _eta), presence_penalty,
// frequency_penalty, repeat_penalty, penalty_last_n, dry_multiplier, dry_base, dry_allowed_length,
// dry_penalty_last_n, dry_sequence_breakers, adaptive_target, adaptive_decay, samplers (the chain's
// order: an array of names or a string of letters, as llama-server reads it), seed, logit_bias
// [[id, bias], ...], ignore_eos, grammar, grammar_lazy with trigger_patterns (full-match regexes),
// and the reasoning budget as llama-server hands it to its sampler (server-schema.cpp):
// reasoning_budget_tokens (-1: none), reasoning_budget_start_tag, reasoning_budget_end_tags (the
// first is forced when the budget runs out, after reasoning_budget_message), reasoning_control
// (the budget's sampler even without a budget, for ip_reasoning_end) and generation_prompt (the
// template's opening of the answer: a budget counts from a start tag there).
// Defaults are llama.cpp's (common_params_sampling). The prompt's tokens are fed to it (penalties
// see them).
IP_EXPORT int ip_sampler(const char * spec) {
  Engine & e = engine();
  Slot & slot = e.slot();
  if (slot.sampler) common_sampler_free(slot.sampler);
  slot.sampler = nullptr;
  try {
    const json p = json::parse(spec);
    common_params_sampling s;
    s.temp = p.value("temperature", s.temp);
    s.dynatemp_range = p.value("dynatemp_range", s.dynatemp_range);
    s.dynatemp_exponent = p.value("dynatemp_exponent", s.dynatemp_exponent);
    s.top_k = p.value("top_k", s.top_k);
    s.top_p = p.value("top_p", s.top_p);
    s.min_p = p.value("min_p", s.min_p);
    s.min_keep = p.value("min_keep", s.min_keep);
    s.top_n_sigma = p.value("top_n_sigma", s.top_n_sigma);
    s.typ_p = p.value("typical_p", s.typ_p);
    s.xtc_probability = p.value("xtc_probability", s.xtc_probability);
    s.xtc_threshold = p.value("xtc_threshold", s.xtc_threshold);
    s.mirostat = p.value("mirostat", s.mirostat);
    s.mirostat_tau = p.value("mirostat_tau", s.mirostat_tau);
    s.mirostat_eta = p.value("mirostat_eta", s.mirostat_eta);
    s.penalty_present = p.value("presence_penalty", s.penalty_present);
    s.penalty_freq = p.value("frequency_penalty", s.penalty_freq);
    s.penalty_repeat = p.value("repeat_penalty", s.penalty_repeat);
    s.penalty_last_n = p.value("penalty_last_n", s.penalty_last_n);
    s.dry_multiplier = p.value("dry_multiplier", s.dry_multiplier);
    s.dry_base = p.value("dry_base", s.dry_base);
    s.dry_allowed_length = p.value("dry_allowed_length", s.dry_allowed_length);
    s.dry_penalty_last_n = p.value("dry_penalty_last_n", s.dry_penalty_last_n);
    if (p.contains("dry_sequence_breakers"))
      s.dry_sequence_breakers = p.at("dry_sequence_breakers").get<std::vector<std::string>>();
    s.adaptive_target = p.value("adaptive_target", s.adaptive_target);
    s.adaptive_decay = p.value("adaptive_decay", s.adaptive_decay);
    if (p.contains("samplers")) {
      const json & order = p.at("samplers");
      s.samplers = order.is_string() ? common_sampler_types_from_chars(order.get<std::string>())
                                     : common_sampler_types_from_names(order.get<std::vector<std::string>>());
    }
    s.seed = p.value("seed", s.seed);
    for (const auto & bias : p.value("logit_bias", json::array())) s.logit_bias.push_back({bias.at(0), bias.at(1)});
    if (p.value("ignore_eos", false))
      for (llama_token id : e.eog) s.logit_bias.push_back({id, -INFINITY});
    const std::string grammar = p.value("grammar", std::string());
    if (!grammar.empty()) s.grammar = {COMMON_GRAMMAR_TYPE_USER, grammar};
    s.grammar_lazy = p.value("grammar_lazy", false);
    for (const auto & pattern : p.value("trigger_patterns", json::array()))
      s.grammar_triggers.push_back({COMMON_GRAMMAR_TRIGGER_TYPE_PATTERN_FULL, pattern.get<std::string>()});
    reasoning_budget(e.vocab, p, s);
    slot.sampler = common_sampler_init(e.model, s);
  } catch (const std::exception & error) {
    return fail(std::string("the sampler could not be set up: ") + error.what());
  }
  if (!slot.sampler) return fail("the grammar could not be parsed");
  // A media chunk's positions (LLAMA_TOKEN_NULL) are skipped, as llama-server skips them.
  for (llama_token id : slot.prompt)
    if (id != LLAMA_TOKEN_NULL) common_sampler_accept(slot.sampler, id, false);
  return 0;
}

// The `n` most likely tokens of the raw distribution at the last logits (ids in out.i32 after
// the sampled one, logprobs in out.f32 after the sampled one's), and the logprob of `chosen`.
static void report(const float * logits, int n_vocab, llama_token chosen, int n) {
  std::vector<llama_token_data> cur(n_vocab);
  float max = -INFINITY;
  for (llama_token id = 0; id < n_vocab; id++) {
    cur[id] = {id, logits[id], 0.0f};
    max = std::max(max, logits[id]);
  }
  double sum = 0;
  for (auto & c : cur) sum += std::exp(c.logit - max);
  const float log_sum = static_cast<float>(std::log(sum)) + max;
  n = std::min(n, n_vocab);
  std::partial_sort(cur.begin(), cur.begin() + n, cur.end(),
                    [](const llama_token_data & a, const llama_token_data & b) { return a.logit > b.logit; });
  out().i32.push_back(chosen);
  out().f32.push_back(logits[chosen] - log_sum);
  for (int i = 0; i < n; i++) {
    out().i32.push_back(cur[i].id);
    out().f32.push_back(cur[i].logit - log_sum);
  }
}

// Samples the next token from the logits at batch position `index` (-1: the last decoded; a
// draft's positions: speculative.cpp); with `n_probs` > 0 also reports its logprob and the top
// `n_probs` (of the distribution before any sampler or ban). `ban_eog` keeps end-of-generation
// tokens from being sampled (min_tokens). Returns the token id, or -1 when no sampler was set up.
IP_EXPORT_MAY_SUSPEND int ip_sample(int index, int n_probs, int ban_eog) {
  Engine & e = engine();
  common_sampler * sampler = e.slot().sampler;
  if (!sampler) return fail("no sampler");
  out().i32.clear();
  out().f32.clear();
  float * logits = llama_get_logits_ith(e.ctx, index);
  if (!logits) return fail("no logits at batch position " + std::to_string(index));
  std::vector<float> saved;
  if (ban_eog) {
    for (llama_token id : e.eog) {
      saved.push_back(logits[id]);
      logits[id] = -INFINITY;
    }
  }
  llama_token id = LLAMA_TOKEN_NULL;
  std::string failure;
  try {
    id = common_sampler_sample(sampler, e.ctx, index);
  } catch (const std::exception & error) {
    failure = error.what();
  }
  for (size_t i = 0; i < saved.size(); i++) logits[e.eog[i]] = saved[i];
  if (!failure.empty()) return fail("the sampler failed: " + failure);
  if (n_probs > 0) report(logits, llama_vocab_n_tokens(e.vocab), id, n_probs);
  return id;
}

// Feeds the sampled token to the sampler (grammar, penalties, mirostat state). 0, or -1 where
// llama.cpp threw: a grammar that cannot take the token (the reasoning budget forced one it
// does not allow, say), which llama-server answers with a 500; the request ends, the engine
// goes on (the next request sets up a new sampler).
IP_EXPORT int ip_accept(llama_token id) {
  try {
    common_sampler_accept(engine().slot().sampler, id, true);
  } catch (const std::exception & error) {
    return fail(std::string("the grammar cannot take the sampled token: ") + error.what());
  }
  return 0;
}

// Ends the current slot's reasoning now, as llama-server's reasoning_end control does: its budget
// sampler (set up with reasoning_control or a budget) forces the end tag from the next token.
// 1 when it was forced, 0 when there is no budget sampler or the reasoning is not running.
IP_EXPORT int ip_reasoning_end() {
  common_sampler * sampler = engine().slot().sampler;
  return sampler && common_sampler_reasoning_budget_force(sampler) ? 1 : 0;
}

// Scores `ids[1..n)`: for each, its logprob given the ones before it and the top `top`
// (out.i32: [id, top ids...] per position, out.f32 likewise). The slot then holds `ids`.
IP_EXPORT_MAY_SUSPEND int ip_score(const llama_token * ids, int n, int top) {
  Engine & e = engine();
  Slot & s = e.slot();
  out().i32.clear();
  out().f32.clear();
  if (n > static_cast<int>(llama_n_ctx_seq(e.ctx))) return fail("the prompt is longer than the context");
  llama_memory_seq_rm(llama_get_memory(e.ctx), e.current, 0, -1);
  s.clear();
  const int n_vocab = llama_vocab_n_tokens(e.vocab);
  for (int from = 0; from < n; from += e.n_batch) {
    const int count = std::min(e.n_batch, n - from);
    if (decode(e.ctx, ids + from, count, from, Logits::all, e.current) != 0)
      return fail("llama_decode failed while scoring the prompt");
    s.cached.insert(s.cached.end(), ids + from, ids + from + count);
    for (int i = 0; i < count; i++) {
      const int next = from + i + 1;
      if (next >= n) break;
      report(llama_get_logits_ith(e.ctx, i), n_vocab, ids[next], top);
    }
  }
  return n - 1;
}
