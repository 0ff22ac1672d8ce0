/** A JSON constraint on a chat answer: llama-server 0.7.0's chat grammar (the JSON, or in a ```json fence). */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { chatJsonGrammar, jsonFrame } from '../../../../../worker/engine/chat/chat-json-grammar';
import { checkGbnf } from '../../../../../src/core/constraints/gbnf-check';
import { jsonObjectGbnf, jsonSchemaToGbnf } from '../../../../../src/core/constraints/json-schema-to-gbnf';
import type { OutputGrammar } from '../../../../../src/core/domain/generation';

const ROOT = 'root ::= space ("```json" space json-answer space "```" | space json-answer space)';

describe('chatJsonGrammar', () => {
  it("wraps a schema's grammar: whitespace, then the JSON alone or fenced", () => {
    const object: OutputGrammar = { gbnf: jsonObjectGbnf(), param: 'response_format', schema: { type: 'object' } };
    const { gbnf, ...rest } = chatJsonGrammar(object);
    expect(rest).toStrictEqual({ param: 'response_format', schema: { type: 'object' } });
    expect(gbnf.split('\n')[0]).toBe(ROOT);
    expect(gbnf).toContain(`json-answer ::= ${/^root ::= (.*)$/m.exec(object.gbnf)?.[1]}`);
    expect(gbnf).not.toMatch(/^root ::= object/m);
    expect(() => checkGbnf(gbnf, 'response_format')).not.toThrow();
  });

  it('names the JSON rule so as not to meet a rule of the schema, and brings `space` where the schema has none', () => {
    const named: OutputGrammar = {
      gbnf: 'root ::= json-answer\njson-answer ::= "1"',
      param: 'json_schema',
      schema: { $ref: '#/$defs/json-answer' },
    };
    const { gbnf } = chatJsonGrammar(named);
    expect(gbnf.split('\n')).toStrictEqual([
      ROOT.replaceAll('json-answer', 'json-answer-1'),
      'json-answer-1 ::= json-answer',
      'json-answer ::= "1"',
      'space ::= | " " | "\\n"{1,2} [ \\t]{0,20}',
    ]);
    expect(() => checkGbnf(gbnf, 'json_schema')).not.toThrow();
  });

  it('leaves the other constraints as they are: a grammar, a regex, a lazy tool grammar', () => {
    const schema = { type: 'integer' };
    const grammars: OutputGrammar[] = [
      { gbnf: 'root ::= "a"', param: 'grammar' },
      { gbnf: 'root ::= [0-9]+', param: 'guided_regex', afterReasoning: true },
      { gbnf: jsonSchemaToGbnf(schema, 'tools'), param: 'tools', schema, trigger: '<tool_call>' },
    ];
    for (const grammar of grammars) expect(chatJsonGrammar(grammar)).toBe(grammar);
  });

  it("requires the fence where the template's llama-server parser wants it (Gemma 4, Ministral 3, Devstral)", () => {
    const object: OutputGrammar = { gbnf: jsonObjectGbnf(), param: 'response_format', schema: { type: 'object' } };
    const { gbnf } = chatJsonGrammar(object, 'fenced');
    expect(gbnf.split('\n')[0]).toBe('root ::= space "```json" space json-answer space "```"');
    expect(() => checkGbnf(gbnf, 'response_format')).not.toThrow();
    const frame = (name: string) => jsonFrame(readFileSync(`test/fixtures/chat-templates/${name}.jinja`, 'utf8'));
    expect(
      ['google-gemma-4-31B-it', 'mistralai-Ministral-3-14B-Reasoning-2512', 'unsloth-mistral-Devstral-Small-2507'].map(
        frame,
      ),
    ).toStrictEqual(['fenced', 'fenced', 'fenced']);
    expect(['Mistral-Small-3.2-24B-Instruct-2506', 'Qwen-Qwen3-0.6B', 'openbmb-MiniCPM5-1B'].map(frame)).toStrictEqual([
      'optional',
      'optional',
      'optional',
    ]);
    expect(frame('openai-gpt-oss-120b')).toBe('harmony');
  });
});

describe('chatJsonGrammar on harmony', () => {
  it("writes the JSON as the final message's body, after any analysis messages", () => {
    const object: OutputGrammar = { gbnf: jsonObjectGbnf(), param: 'response_format', schema: { type: 'object' } };
    const { gbnf } = chatJsonGrammar(object, 'harmony');
    expect(() => checkGbnf(gbnf, 'response_format')).not.toThrow();
    expect(gbnf).toContain(
      'harmony-message ::= ( "<|channel|>commentary" ( " to=assistant" )? )? "<|channel|>analysis<|message|>" harmony-body | "<|channel|>final" harmony-constraint "<|message|>" json-answer',
    );
    // A schema whose grammar names a rule as the frame does keeps it; the frame's goes by another name.
    const clash: OutputGrammar = { ...object, gbnf: `${jsonObjectGbnf()}harmony-body ::= "x"\n` };
    const renamed = chatJsonGrammar(clash, 'harmony').gbnf;
    expect(renamed).toContain('harmony-body ::= "x"');
    expect(renamed).toContain('harmony-body-frame ::= [^<]');
  });
});
