/** Every backend the page runtime knows, by name. */
import type { BackendName } from '../../core/domain/backend-name';
import { llamacppBackend } from './llamacpp';
import type { PageBackend } from './page-backend';
import { webllmBackend } from './webllm';

export const PAGE_BACKENDS: Readonly<Record<BackendName, PageBackend>> = {
  llamacpp: llamacppBackend,
  webllm: webllmBackend,
};
