import type OpenAI from 'openai';
import type { createParser } from 'eventsource-parser';
import type { embed, generateText, jsonSchema, Output, rerank, streamText, tool } from 'ai';
import type { createCohere } from '@ai-sdk/cohere';
import type { createOpenAI } from '@ai-sdk/openai';
import type { createAnthropic } from '@ai-sdk/anthropic';
import type Anthropic from '@anthropic-ai/sdk';
import type { ChatOpenAI } from '@langchain/openai';
import type { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import type { OpenAI as LlamaIndexOpenAI, OpenAIResponses as LlamaIndexOpenAIResponses } from '@llamaindex/openai';
import type { Inpage, LoadProgress } from '../../src/index';

/** One request a client SDK made, as `recordV1Fetches` logs it. */
export interface V1Fetch {
  method: string;
  path: string;
  status: number;
  /** The JSON body, when it was sent as a string. */
  body: unknown;
}

declare global {
  interface Window {
    inpage: Inpage;
    inpageProgress: LoadProgress[];
    OpenAI: typeof OpenAI;
    createParser: typeof createParser;
    /** Only on pages that loaded `sdk-scripts.ts`'s 'ai-sdk' script. */
    AISDK: {
      embed: typeof embed;
      generateText: typeof generateText;
      streamText: typeof streamText;
      jsonSchema: typeof jsonSchema;
      tool: typeof tool;
      Output: typeof Output;
      createOpenAI: typeof createOpenAI;
    };
    /** Only on pages that loaded the 'anthropic' script. */
    Anthropic: typeof Anthropic;
    /** Only on pages that loaded the 'ai-sdk-anthropic' script. */
    AISDKAnthropic: {
      generateText: typeof generateText;
      streamText: typeof streamText;
      jsonSchema: typeof jsonSchema;
      tool: typeof tool;
      createAnthropic: typeof createAnthropic;
    };
    /** Only on pages that loaded the 'ai-sdk-cohere' script. */
    AISDKCohere: { rerank: typeof rerank; createCohere: typeof createCohere };
    /** Only on pages that loaded the 'langchain' script. */
    LangChain: {
      ChatOpenAI: typeof ChatOpenAI;
      AIMessage: typeof AIMessage;
      HumanMessage: typeof HumanMessage;
      SystemMessage: typeof SystemMessage;
      ToolMessage: typeof ToolMessage;
    };
    /** Only on pages that loaded the 'llamaindex' script. */
    LlamaIndex: { OpenAI: typeof LlamaIndexOpenAI; OpenAIResponses: typeof LlamaIndexOpenAIResponses };
    /** Every fetch to `/v1/...` the page made since `recordV1Fetches` (method, path, status, JSON body). */
    v1Fetches: V1Fetch[];
  }
}
