/**
 * `npx tsx test/differential/check-grammars.ts`: runs this project's grammars on native llama.cpp
 * (node-llama-cpp 3.22.1, installed on demand into .bench/native as test/differential/differential.ts
 * does) with the generated test model: greedy outputs under a GBNF grammar, a regex and a
 * JSON schema must be exactly as expected (the schema's output must pass Ajv), and the GBNF
 * emitted for every converter unit-test schema must parse natively. Not part of CI.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { toConstraint } from '../../src/core/constraints/to-constraint';
import { jsonSchemaToGbnf } from '../../src/core/constraints/json-schema-to-gbnf';
import { buildInpageTestModel } from '../../src/builtin-model/inpage-test-model';
import { CONVERTER_SCHEMAS } from '../fixtures/constraint-schemas';
import { openNativeRunner } from './check-grammars-native';
import { ensureNative } from './ensure-native';

const MODEL = resolve('.bench/inpage-test.gguf');

const PET = {
  type: 'object',
  properties: {
    name: { type: 'string', maxLength: 6 },
    kind: { enum: ['cat', 'dog'] },
    owner: {
      type: 'object',
      properties: {
        id: { type: 'integer', minimum: 0, maximum: 99 },
        tags: { type: 'array', items: { type: 'string', maxLength: 4 }, minItems: 1, maxItems: 2 },
      },
      required: ['id', 'tags'],
    },
  },
  required: ['name', 'kind', 'owner'],
  additionalProperties: false,
};

await mkdir('.bench', { recursive: true });
await writeFile(MODEL, buildInpageTestModel());
const runner = await openNativeRunner(await ensureNative(), MODEL);
let failures = 0;
const report = (ok: boolean, line: string) => {
  if (!ok) failures += 1;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${line}`);
};

// Parse checks first: they are fast. Greedy JSON generations under a grammar take tens of seconds each here.
for (const [name, schema] of Object.entries(CONVERTER_SCHEMAS)) {
  const complaint = await runner.parse(jsonSchemaToGbnf(schema, 'response_format'));
  report(
    complaint === null,
    `native llama.cpp parses the GBNF for schema '${name}'${complaint ? `: ${complaint}` : ''}`,
  );
}
const cases: { label: string; request: Record<string, unknown>; prompt: string; expected?: string }[] = [
  { label: 'grammar', request: { grammar: 'root ::= "xyz" [a-z] [a-z] [a-z]' }, prompt: 'a', expected: 'xyzabc' },
  { label: 'regex', request: { regex: '[0-9]{3}-x[a-z]{2}' }, prompt: '7', expected: '890-xyz' },
  { label: 'choice', request: { guided_choice: ['cat', 'dog', 'bcd'] }, prompt: 'a', expected: 'bcd' },
  {
    label: 'json_schema',
    request: { response_format: { type: 'json_schema', json_schema: { name: 'pet', schema: PET, strict: true } } },
    prompt: 'a',
  },
  { label: 'json_object', request: { response_format: { type: 'json_object' } }, prompt: 'a' },
];
const ajv = new Ajv2020({ strict: false });
for (const { label, request, prompt, expected } of cases) {
  const constraint = toConstraint(request);
  if (!constraint) throw new Error(`no constraint for ${label}`);
  const started = Date.now();
  const text = await runner.complete(prompt, constraint.gbnf, 160);
  console.log(`     (${label}: ${Date.now() - started} ms)`);
  if (expected !== undefined) {
    report(
      text === expected,
      `${label}: prompt ${JSON.stringify(prompt)} -> ${JSON.stringify(text)} (expected ${JSON.stringify(expected)})`,
    );
    continue;
  }
  let valid = false;
  let detail = '';
  try {
    const value: unknown = JSON.parse(text);
    valid = constraint.schema === undefined || ajv.validate(constraint.schema, value);
    detail = valid ? 'parses and validates' : `fails the schema: ${ajv.errorsText()}`;
  } catch (error) {
    detail = `does not parse: ${error instanceof Error ? error.message : String(error)}`;
  }
  report(valid, `${label}: prompt ${JSON.stringify(prompt)} -> ${JSON.stringify(text)} ${detail}`);
}

console.log(failures === 0 ? 'all grammar checks passed' : `${failures} grammar checks failed`);
process.exitCode = failures === 0 ? 0 : 1;
