import { constants } from 'node:zlib';
import type { FastifyCompressOptions } from '@fastify/compress';

/**
 * How API responses are compressed on the fly (static files are precompressed at build time).
 *
 * - Brotli quality 2, not @fastify/compress's 4: a client page compresses in well under half the
 *   time for a few more bytes, still fewer than gzip's default, and compression was a large share of
 *   the server's CPU under load (figures: ADR 0029, docs/benchmarks.md round six).
 * - Synchronously up to 64 KB: the plugin's default ceiling on a 2-core host is 8 KB, above which a
 *   page goes through a zlib stream (chunked, several socket writes, a thread-pool hop) instead of
 *   one buffer with its Content-Length.
 * - Nothing under 1 KB: the headers would outweigh the saving.
 */
export const API_COMPRESSION: FastifyCompressOptions = {
  threshold: 1024,
  syncThreshold: 64 * 1024,
  brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 2 } },
};
