/**
 * llama-server's rerank endpoint, on each of its four paths: `POST /rerank` and `/reranking`
 * beside the route prefix, `<prefix>/rerank` and `<prefix>/reranking` under it (`/v1/rerank`:
 * the one a configured route may also send to a remote server). The key is checked first, then
 * the body, then the model: one that is not a reranker (its GGUF's `pooling_type` is not rank)
 * is a 400 naming `model`. The engine scores each document against the query (one `rerank`
 * job); the answer is sorted here.
 */
import { checkRerankCapabilities } from '#core/domain/rerank';
import { LLAMA_SERVER_DIALECT } from '../../dialect/llama-server-dialect';
import type { RouteFactory } from '../../generation-route';
import { resultRoute } from '../../result-route';
import { withDefaultModel } from '../llama-server/default-model';
import { rerankResponse } from './rerank-response';
import { validateRerank } from './validate-rerank';

const rerankAt = (path: string, outsidePrefix: boolean): RouteFactory =>
  resultRoute({
    path,
    dialect: LLAMA_SERVER_DIALECT,
    outsidePrefix,
    kind: 'rerank',
    complete: withDefaultModel,
    parse: validateRerank,
    job: ({ model, query, documents }) => ({ model, query, documents }),
    check: checkRerankCapabilities,
    answer: rerankResponse,
  });

/** The four paths llama-server answers rerank requests on. */
export const rerankRoutes: RouteFactory[] = [
  rerankAt('/rerank', true),
  rerankAt('/reranking', true),
  rerankAt('/rerank', false),
  rerankAt('/reranking', false),
];
