/** Texts on which native llama.cpp and Qwen3's own tokenizer must agree, and greedy prompts for `inpage-test-qwen3`. */

/** Tokenization corpus: scripts, emoji, combining marks, code, whitespace runs, special-token texts. */
export const QWEN3_TOKENIZE_CORPUS: readonly string[] = [
  'Hello, world!',
  "The quick brown fox jumps over the lazy dog. It's 2026; we'll see, they'd say, I'M SURE.",
  'Hello, world! 你好 😀 𝔸 café.',
  '你好，世界！今天天气很好。我想在apple工作1314151天～',
  '日本語のテキスト、カタカナとひらがな。한국어 문장입니다.',
  'Привет, мир! Ελληνικά. עברית. العربية. हिन्दी. ไทย',
  '😀😃😄 👩‍👩‍👧‍👦 🇺🇳 🦙🦙 ✅ 😶‍🌫️',
  // combining marks already in NFC (no precomposed form, canonical order): both must agree as is
  'j\u0323\u0307 Z\u0317\u0351\u0302 q\u0323\u0307 \u0915\u094d\u0937 \u0928\u093f a\u20d7',
  // not NFC: Qwen3's tokenizer.json NFC-normalizes first, llama.cpp does not (known divergence)
  'e\u0301 a\u0300\u0323 n\u0303 Z\u0351\u0317\u0302 q\u0307\u0323',
  'café naïve résumé Ångström ﬁ ½ ①',
  '𝔸𝔹ℂ 𝕏 𝒜 \u{10FFFD}',
  'function add(a, b) {\n  return a + b; // sum\n}\n',
  'def f(x):\n\tif x > 0:\n\t\treturn [i**2 for i in range(x)]\n',
  '   leading spaces\n\n\n   \t\t mixed   whitespace runs    \n \n\n \n',
  '\n \n\n \n\n\n \t \t\t \t\n  \n   \n    \n     \n',
  '3 33 333 3333 33333 3.3 3..3 3...3 1e-9 0x1F',
  "''''''```````\"\"\"\"......!!!!!!?????? ------=======",
  '<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n',
  '<think>\nreasoning\n</think>\n\nanswer<|endoftext|>',
  '<tool_call>{"name": "f"}</tool_call><|fim_prefix|>a<|fim_suffix|>b<|fim_middle|>',
  'not <|im_end special|> and <|im_end|>x<|im_end|>',
];

/** Greedy prompts: ASCII, CJK, emoji, ending in a chain token, ending mid-chain, chat-shaped. */
export const QWEN3_GREEDY_PROMPTS: readonly string[] = [
  'The year 2026 ends',
  '你好，世界',
  'llamas 🦙',
  'Hello',
  'Say: Hello, world! 你好 😀',
  '你好 😀 𝔸',
  '<|im_start|>user\nabc<|im_end|>\n<|im_start|>assistant\n',
];
