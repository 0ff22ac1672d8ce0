import { startInpage, type Inpage } from '../src/index';
import './inpage-demo';

declare global {
  interface Window {
    /** The running endpoint (contract: `await window.inpage.ready`). */
    inpage: Inpage;
  }
}

const model = new URLSearchParams(location.search).get('model') ?? 'inpage-test';
window.inpage = startInpage({ model });
const demo = document.querySelector('inpage-demo');
if (demo) demo.runtime = window.inpage;
