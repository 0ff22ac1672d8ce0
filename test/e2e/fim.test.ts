import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright';
import { buildInpageTestModel } from '../../src/builtin-model/inpage-test-model';
import { create, createStreamed } from './conformance-helpers';
import { startHarness, type Harness } from './harness';
import { postFromPage } from './page-helpers';

// `suffix` on a model with fill-in-the-middle tokens: the FIM variant of the test model,
// served as a GGUF file. After <|fim_middle|> it writes "m", then "n", "o", ...
const DIR = 'dist/test-fim';

let harness: Harness;
let page: Page;

before(async () => {
  await mkdir(DIR, { recursive: true });
  await writeFile(`${DIR}/inpage-test-fim.gguf`, buildInpageTestModel({ fim: true }));
  harness = await startHarness();
  ({ page } = await harness.openPage('/?model=/test-fim/inpage-test-fim.gguf'));
});

after(async () => {
  await harness.close();
  await rm(DIR, { recursive: true, force: true });
});

const body = { model: 'inpage-test-fim', prompt: 'ab', suffix: 'yz', max_tokens: 3, temperature: 0 };

test("suffix builds prefix-suffix-middle with the model's FIM tokens; stream and non-stream agree", async () => {
  const whole = await create(page, body);
  assert.equal(whole.choices[0]?.text, 'mno');
  // 2 prompt bytes + 2 suffix bytes + the 3 FIM tokens, each one token (parsed as special).
  assert.equal(whole.usage.prompt_tokens, 7);
  const streamed = await createStreamed(page, body);
  assert.equal(streamed.choices[0]?.text, 'mno');
});

test('without suffix the same model completes plainly; echo with suffix is a 400', async () => {
  const plain = await create(page, { ...body, suffix: undefined });
  assert.equal(plain.choices[0]?.text, 'cde');
  assert.equal(plain.usage.prompt_tokens, 2);
  const echo = await postFromPage(page, '/v1/completions', { ...body, echo: true });
  assert.equal(echo.status, 400);
  assert.equal((echo.body as { error: { param: string } }).error.param, 'suffix');
});
