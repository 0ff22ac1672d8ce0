import type OpenAI from 'openai';
import type { Inpage, LoadProgress } from '../../src/index';

declare global {
  interface Window {
    inpage: Inpage;
    inpageProgress: LoadProgress[];
    OpenAI: typeof OpenAI;
  }
}
