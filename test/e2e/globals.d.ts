import type OpenAI from 'openai';
import type { createParser } from 'eventsource-parser';
import type { Inpage, LoadProgress } from '../../src/index';

declare global {
  interface Window {
    inpage: Inpage;
    inpageProgress: LoadProgress[];
    OpenAI: typeof OpenAI;
    createParser: typeof createParser;
  }
}
