/**
 * The drop-in script (`dist/inpage-llm.js`, a classic script):
 * `<script src="/inpage-llm.js" data-model="inpage-test"></script>` starts the in-page endpoint
 * and exposes it as `window.inpage` (`await window.inpage.ready`).
 */
import { startInpage } from '../start-inpage';
import { readScriptOptions } from './read-script-options';
import { exposeOnWindow } from './window-globals';

const script = document.currentScript instanceof HTMLScriptElement ? document.currentScript : null;
const { options, errors } = readScriptOptions(script ? { ...script.dataset } : {}, script?.src || document.baseURI);
for (const error of errors) console.error(`[inpage-llm] ${error}`);
// Always a `window.inpage`: a model that cannot start makes its `ready` reject with why.
const runtime = startInpage(options);
exposeOnWindow(runtime);
runtime.ready.catch((error: unknown) =>
  console.error(`[inpage-llm] The endpoint did not start: ${error instanceof Error ? error.message : String(error)}`),
);
