/** Model id under which the built-in deterministic test model is served. */
export const INPAGE_TEST_MODEL_ID = 'inpage-test';

/** Hyper-parameters and constants of the `inpage-test` model. */
export const inpageTestSpec = {
  name: INPAGE_TEST_MODEL_ID,
  architecture: 'llama',
  nVocab: 258,
  nEmbd: 320,
  nLayer: 2,
  nHead: 5,
  nHeadKv: 5,
  headDim: 64,
  nFf: 256,
  contextLength: 4096,
  rmsNormEps: 1e-5,
  ropeFreqBase: 10000,
  bosTokenId: 256,
  eosTokenId: 257,
  bosToken: '<s>',
  eosToken: '</s>',
  /** Value of the single nonzero entry of each token embedding row. */
  embeddingValue: 1,
  /** Half-width of the uniform range of q/k/v/gate/up weights. */
  weightScale: 0.05,
  /** Seed of the PRNG that fills the (inert) block weights. */
  seed: 0x5eed1234,
  /** Its chat template: the messages' contents, concatenated (no roles, separators or generation prompt). */
  chatTemplate: '{% for message in messages %}{{ message.content }}{% endfor %}',
} as const;

/**
 * The fill-in-the-middle variant (`buildInpageTestModel({ fim: true })`, for tests of
 * `suffix`): three more control tokens after EOS, declared as the model's FIM tokens. After
 * the middle token the model writes 'm', then continues by the usual letter rule.
 */
export const inpageTestFim = {
  nVocab: 261,
  pre: { id: 258, text: '<|fim_prefix|>' },
  suf: { id: 259, text: '<|fim_suffix|>' },
  mid: { id: 260, text: '<|fim_middle|>' },
  /** What follows the middle token. */
  afterMid: 0x6d,
} as const;
