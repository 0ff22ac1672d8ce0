import { createRequire } from 'node:module';
import { prebuiltAppConfig } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { WEBLLM_CATALOGUE_IDS, WEBLLM_CATALOGUE_VERSION } from '../../../../../src/page/backends/webllm-catalogue-ids';

const installed = (createRequire(import.meta.url)('@mlc-ai/web-llm/package.json') as { version: string }).version;

describe("the page's copy of WebLLM's catalogue ids (src/page/backends/webllm-catalogue-ids.ts)", () => {
  it("equals the installed WebLLM's prebuiltAppConfig.model_list ids", () => {
    expect(
      WEBLLM_CATALOGUE_IDS,
      `src/page/backends/webllm-catalogue-ids.ts (generated from @mlc-ai/web-llm ${WEBLLM_CATALOGUE_VERSION}) is not ` +
        `the catalogue of the installed ${installed}: run \`npm run write-webllm-catalogue\` and commit the file.`,
    ).toStrictEqual(prebuiltAppConfig.model_list.map((record) => record.model_id));
  });
});
