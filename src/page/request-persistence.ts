/**
 * The `persist` option: asks the browser to keep this origin's storage, so it does not evict
 * the stored models (gigabytes, slow to download again) under storage pressure. Browsers decide
 * by their own rules (Chromium: engagement, an installed app) and may say no; that is not an
 * error, but the page's developer should know, once (not once per runtime or reload of a model).
 */
let warned = false;

/** Whether persistence was granted; a refusal (or no `navigator.storage`) warns once per page. */
export async function requestPersistence(): Promise<boolean> {
  let granted = false;
  try {
    granted = await navigator.storage.persist();
  } catch {
    // No StorageManager here (an insecure context): as a refusal.
  }
  if (!granted && !warned) {
    warned = true;
    console.warn(
      '[inpage-llm] persist: the browser did not grant persistent storage, so it may evict stored models ' +
        'under storage pressure (they are then downloaded again). inpage.models.usage() says when it is granted.',
    );
  }
  return granted;
}
