import type { EngineHost } from './engine-host';

/** The engine worker's API as the page sees it through comlink. */
export type EngineApi = Pick<EngineHost, 'load' | 'models' | 'complete' | 'recent' | 'dispose' | 'isCached' | 'deleteCached' | 'offerCatalogue' | 'catalogue'>;
