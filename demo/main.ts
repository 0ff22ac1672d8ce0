import { startInpage, type Inpage, type LoadProgress } from '../src/index';
import './inpage-demo';
import { backendOptions, webllmModel } from './webllm-params';

declare global {
  interface Window {
    /** The running endpoint (contract: `await window.inpage.ready`). */
    inpage: Inpage;
    /** Every load progress report since start (the playground and the tests read it). */
    inpageProgress: LoadProgress[];
  }
}

const params = new URLSearchParams(location.search);
const model = params.get('model') ?? 'inpage-test';
const apiKey = params.get('api_key');
window.inpage = startInpage({ model: webllmModel(params) ?? model, ...backendOptions(params), ...(apiKey ? { apiKey } : {}) });
window.inpageProgress = [];
window.inpage.onProgress((progress) => window.inpageProgress.push(progress));
const demo = document.querySelector('inpage-demo');
if (demo) demo.runtime = window.inpage;
