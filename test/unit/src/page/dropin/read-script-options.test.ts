import { describe, expect, it } from 'vitest';
import { readScriptOptions } from '../../../../../src/page/dropin/read-script-options';

const SCRIPT = 'https://app.example/static/inpage-llm.js';

describe('readScriptOptions (the drop-in script attributes)', () => {
  it('defaults: inpage-test, the SW beside the script, no errors', () => {
    const { options, errors } = readScriptOptions({}, SCRIPT);
    expect(errors).toEqual([]);
    expect(options.model).toBe('inpage-test');
    expect(options.backend).toBeUndefined();
    expect(options.serviceWorkerUrl).toBe('https://app.example/static/sw.js');
    expect(options.scope).toBeUndefined();
  });

  it('a GGUF URL is resolved against the script, with data-sw and data-scope passed through', () => {
    const { options, errors } = readScriptOptions({ model: 'models/tiny.gguf', sw: '/sw.js', scope: '/' }, SCRIPT);
    expect(errors).toEqual([]);
    expect(options.model).toBe('https://app.example/static/models/tiny.gguf');
    expect(options.serviceWorkerUrl).toBe('https://app.example/sw.js');
    expect(options.scope).toBe('/');
  });

  it('data-backend and data-fallback pass through; an unknown backend is an error, not silence', () => {
    const auto = readScriptOptions(
      { model: 'Llama-3.2-1B-Instruct-q4f32_1-MLC', backend: 'auto', fallback: 'models/tiny.gguf' },
      SCRIPT,
    );
    expect(auto.errors).toEqual([]);
    expect(auto.options).toMatchObject({
      model: 'Llama-3.2-1B-Instruct-q4f32_1-MLC',
      backend: 'auto',
      fallbackModel: 'https://app.example/static/models/tiny.gguf',
    });
    const unknown = readScriptOptions({ backend: 'cuda' }, SCRIPT);
    expect(unknown.errors).toEqual([expect.stringContaining('data-backend="cuda" is not a backend')]);
    expect(unknown.options.backend).toBeUndefined();
    // A model the backend cannot run is startInpage's to report, through `ready` (resolve-backend.test.ts).
    const mismatch = readScriptOptions({ model: 'inpage-test', backend: 'webllm' }, SCRIPT);
    expect(mismatch.errors).toEqual([]);
    expect(mismatch.options).toMatchObject({ model: 'inpage-test', backend: 'webllm' });
  });

  it('an API key and a route prefix are passed on; /v1 (with a slash) is the default; a bad prefix is reported', () => {
    const { errors, options } = readScriptOptions({ apiKey: ' sk-1 ', routePrefix: 'api/v2/' }, SCRIPT);
    expect(errors).toEqual([]);
    expect(options).toMatchObject({ apiKey: 'sk-1', routePrefix: '/api/v2' });
    expect(readScriptOptions({}, SCRIPT).options.apiKey).toBeUndefined();
    const v1 = readScriptOptions({ routePrefix: '/v1/' }, SCRIPT);
    expect(v1.errors).toEqual([]);
    expect(v1.options.routePrefix).toBeUndefined();
    const bad = readScriptOptions({ routePrefix: '/a b?' }, SCRIPT);
    expect(bad.errors).toEqual([expect.stringContaining('data-route-prefix')]);
    expect(bad.options.routePrefix).toBeUndefined();
  });

  it('data-routes (a route table URL) is passed on for the runtime to fetch; absent, no routes', () => {
    expect(readScriptOptions({ routes: ' /routes.json ' }, SCRIPT).options.routes).toBe('/routes.json');
    expect(readScriptOptions({ routes: ' ' }, SCRIPT).options.routes).toBeUndefined();
  });

  it('data-model is passed on as it is (a catalogue id, an unknown id); only GGUF URLs are made absolute', () => {
    for (const model of ['Qwen2.5-0.5B-Instruct-q4f16_1-MLC', 'gpt-4']) {
      const { options, errors } = readScriptOptions({ model }, SCRIPT);
      expect(errors).toEqual([]);
      expect(options.model).toBe(model);
      expect(options.backend).toBeUndefined();
    }
  });

  it('data-isolate takes credentialless or require-corp; anything else is reported and not passed on', () => {
    for (const isolate of ['credentialless', ' require-corp ']) {
      const { options, errors } = readScriptOptions({ isolate }, SCRIPT);
      expect(errors).toEqual([]);
      expect(options.isolate).toBe(isolate.trim());
    }
    expect(readScriptOptions({}, SCRIPT).options.isolate).toBeUndefined();
    const bad = readScriptOptions({ isolate: 'yes' }, SCRIPT);
    expect(bad.errors).toEqual([expect.stringMatching(/^data-isolate: "yes" is not an isolation mode/)]);
    expect(bad.options.isolate).toBeUndefined();
  });

  it('data-threads takes N or P/D; anything else is reported and the default kept', () => {
    expect(readScriptOptions({ threads: '2' }, SCRIPT).options.threads).toEqual({ prefill: 2, decode: 2 });
    expect(readScriptOptions({ threads: '4/1' }, SCRIPT).options.threads).toEqual({ prefill: 4, decode: 1 });
    expect(readScriptOptions({}, SCRIPT).options.threads).toBeUndefined();
    const bad = readScriptOptions({ threads: 'many' }, SCRIPT);
    expect(bad.errors).toEqual([
      expect.stringMatching(/^data-threads: "many" is not a thread count.*default threads\.$/),
    ]);
    expect(bad.options.threads).toBeUndefined();
  });

  it('data-gpu-layers takes all or a count; anything else is reported and all layers kept', () => {
    expect(readScriptOptions({ gpuLayers: '0' }, SCRIPT).options.gpuLayers).toBe(0);
    expect(readScriptOptions({ gpuLayers: 'all' }, SCRIPT).options.gpuLayers).toBe('all');
    expect(readScriptOptions({}, SCRIPT).options.gpuLayers).toBeUndefined();
    const bad = readScriptOptions({ gpuLayers: 'most' }, SCRIPT);
    expect(bad.errors).toEqual([expect.stringMatching(/^data-gpu-layers: "most" is not a layer count.*all layers\.$/)]);
    expect(bad.options.gpuLayers).toBeUndefined();
  });

  it('data-draft-model is named as data-model is: a GGUF URL relative to the script, an id as it is', () => {
    expect(readScriptOptions({ draftModel: 'small.gguf' }, SCRIPT).options.draftModel).toBe(
      new URL('small.gguf', SCRIPT).href,
    );
    expect(readScriptOptions({ draftModel: 'inpage-test' }, SCRIPT).options.draftModel).toBe('inpage-test');
    expect(readScriptOptions({}, SCRIPT).options.draftModel).toBeUndefined();
  });

  it('data-mmproj is named as data-model is: a GGUF URL relative to the script', () => {
    expect(readScriptOptions({ mmproj: 'vision.mmproj.gguf' }, SCRIPT).options.mmproj).toBe(
      new URL('vision.mmproj.gguf', SCRIPT).href,
    );
    expect(readScriptOptions({}, SCRIPT).options.mmproj).toBeUndefined();
  });

  it('data-lora: adapters separated by spaces, each named as data-model is', () => {
    expect(readScriptOptions({ lora: ' a.gguf  hf:x/y:z.gguf ' }, SCRIPT).options.lora).toEqual([
      new URL('a.gguf', SCRIPT).href,
      'hf:x/y:z.gguf',
    ]);
    expect(readScriptOptions({}, SCRIPT).options.lora).toBeUndefined();
  });

  it("data-alias: the model's other names, separated by spaces", () => {
    expect(readScriptOptions({ alias: ' gpt-4o-mini  local ' }, SCRIPT).options.alias).toEqual([
      'gpt-4o-mini',
      'local',
    ]);
    expect(readScriptOptions({ alias: ' ' }, SCRIPT).options.alias).toBeUndefined();
  });

  it('data-hf-endpoint is a mirror for hf: ids, relative to the script; a bad one is reported', () => {
    expect(readScriptOptions({ model: 'hf:a/b:Q4_K_M', hfEndpoint: '/hf/' }, SCRIPT).options).toMatchObject({
      model: 'hf:a/b:Q4_K_M',
      hfEndpoint: new URL('/hf/', SCRIPT).href,
    });
    expect(readScriptOptions({ hfEndpoint: 'http://[' }, SCRIPT).errors).toHaveLength(1);
  });

  it('data-prompt-cache: false or 0 turns it off, a number of MiB bounds it, true keeps the default; anything else is reported', () => {
    for (const promptCache of ['false', '0', ' FALSE '])
      expect(readScriptOptions({ promptCache }, SCRIPT)).toMatchObject({ options: { promptCache: false }, errors: [] });
    expect(readScriptOptions({ promptCache: '256' }, SCRIPT).options.promptCache).toEqual({ maxMiB: 256 });
    for (const promptCache of ['true', ''])
      expect(readScriptOptions({ promptCache }, SCRIPT)).toMatchObject({ errors: [] });
    expect(readScriptOptions({ promptCache: 'true' }, SCRIPT).options.promptCache).toBeUndefined();
    const bad = readScriptOptions({ promptCache: 'lots' }, SCRIPT);
    expect(bad.options.promptCache).toBeUndefined();
    expect(bad.errors).toEqual([expect.stringContaining('data-prompt-cache="lots"')]);
  });

  it('data-persist (present, true or 1) asks for persistent storage; false or 0 does not; anything else is reported', () => {
    for (const persist of ['', 'true', '1', ' TRUE '])
      expect(readScriptOptions({ persist }, SCRIPT)).toMatchObject({ options: { persist: true }, errors: [] });
    for (const persist of ['false', '0'])
      expect(readScriptOptions({ persist }, SCRIPT).options.persist).toBeUndefined();
    expect(readScriptOptions({}, SCRIPT).options.persist).toBeUndefined();
    const bad = readScriptOptions({ persist: 'always' }, SCRIPT);
    expect(bad.errors).toEqual([expect.stringMatching(/^data-persist="always" is not true or false/)]);
    expect(bad.options.persist).toBeUndefined();
  });

  it('data-reasoning-budget (with data-reasoning-budget-message) is the budget of requests that set none; a bad one is reported', () => {
    expect(readScriptOptions({ reasoningBudget: ' 512 ' }, SCRIPT)).toMatchObject({
      options: { reasoningBudget: { tokens: 512, message: '' } },
      errors: [],
    });
    expect(
      readScriptOptions({ reasoningBudget: '3', reasoningBudgetMessage: ' Enough.' }, SCRIPT).options.reasoningBudget,
    ).toEqual({ tokens: 3, message: ' Enough.' });
    for (const reasoningBudget of ['lots', '-2', '1.5']) {
      const bad = readScriptOptions({ reasoningBudget }, SCRIPT);
      expect(bad.options.reasoningBudget).toBeUndefined();
      expect(bad.errors).toEqual([expect.stringMatching(/^data-reasoning-budget: .*Using no reasoning budget\.$/)]);
    }
  });
});
