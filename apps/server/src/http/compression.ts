import { constants } from 'node:zlib';
import type { FastifyCompressOptions } from '@fastify/compress';

/**
 * Brotli quality 2, not the plugin's 4: well under half the time for a few more bytes, fewer than gzip's
 * (ADR 0029). Synchronously up to 64 KB: above the 8 KB default a page took a zlib stream (chunked, several
 * writes, a thread-pool hop). Nothing under 1 KB: the headers would outweigh the saving.
 */
export const API_COMPRESSION: FastifyCompressOptions = {
  threshold: 1024,
  syncThreshold: 64 * 1024,
  brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 2 } },
};
