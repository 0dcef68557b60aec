import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isResponseSerializationError } from 'fastify-type-provider-zod';
import { ErrorCode, httpStatusOf, type ErrorCodeValue } from '@broker/contract';
import { ApiError } from '../http/api-error';
import { bounded, describeValidationErrors, MAX_MESSAGE_LENGTH } from '../http/validation-message';
import { isDatabaseBusy } from '../db/client';
import { transientDatabaseFailure } from '../db/transient-errors';
import { FORM_LIMITS } from '../http/form-body';

/** Long enough for a burst to drain, short enough for a person. */
const BUSY_RETRY_AFTER_S = 1;
/** A failover takes seconds (docs/deployment.md). */
const TRANSIENT_RETRY_AFTER_S = 2;

/** Refusals before a handler runs, each with its own code (ADR 0014). */
const fastifyCodeMap: Record<string, { code: ErrorCodeValue; msg: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: ErrorCode.PAYLOAD_TOO_LARGE, msg: 'body: larger than the allowed size' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
    msg: 'content-type: not supported here (use application/json)',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: ErrorCode.CONTENT_LENGTH_MISMATCH, msg: 'content-length: does not match the body' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: ErrorCode.JSON_MALFORMED, msg: 'body: must not be empty when content-type is application/json' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: ErrorCode.JSON_MALFORMED, msg: 'body: is not valid JSON' },
  FST_ERR_CTP_EMPTY_TYPE: { code: ErrorCode.UNSUPPORTED_MEDIA_TYPE, msg: 'content-type: must not be empty' },
  FST_ERR_CTP_INVALID_TYPE: { code: ErrorCode.UNSUPPORTED_MEDIA_TYPE, msg: 'content-type: is invalid' },
  FST_ERR_BAD_URL: { code: ErrorCode.URL_MALFORMED, msg: 'url: is malformed (an escape that does not decode)' },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { code: ErrorCode.UNSUPPORTED_MEDIA_TYPE, msg: 'content-type: must be multipart/form-data' },
  FST_PARTS_LIMIT: { code: ErrorCode.FORM_TOO_LARGE, msg: `body: a form here has at most ${FORM_LIMITS.parts} parts` },
  FST_FILES_LIMIT: { code: ErrorCode.FORM_TOO_LARGE, msg: 'body: a form here carries no files' },
  FST_FIELDS_LIMIT: { code: ErrorCode.FORM_TOO_LARGE, msg: `body: a form here has at most ${FORM_LIMITS.fields} fields` },
  FST_REQ_FILE_TOO_LARGE: { code: ErrorCode.FORM_TOO_LARGE, msg: 'body: a form here carries no files' },
  FST_INVALID_JSON_FIELD_ERROR: { code: ErrorCode.FORM_MALFORMED, msg: 'body: a form field declared application/json is not valid JSON' },
  FST_MP_PREMATURE_CLOSE: { code: ErrorCode.FORM_MALFORMED, msg: 'body: the form ended before it was complete' },
  FST_PROTO_VIOLATION: { code: ErrorCode.VALIDATION, msg: 'body: a form field must not be named __proto__ or constructor' },
  FST_ERR_RATE_LIMITED: { code: ErrorCode.RATE_LIMITED, msg: 'too many requests: slow down and retry shortly' },
};

function codeForStatus(status: number): ErrorCodeValue {
  const match = (Object.entries(httpStatusOf) as [ErrorCodeValue, number][]).find(
    ([code, http]) => http === status && code !== '0' && !code.startsWith('08'),
  );
  return match?.[0] ?? ErrorCode.VALIDATION;
}

export function sendError(reply: FastifyReply, code: ErrorCodeValue, msg: string, requestId?: string) {
  // Every msg may quote the client's input: however large that was, the answer is not.
  return reply
    .code(httpStatusOf[code])
    .send({ code, msg: bounded(msg, MAX_MESSAGE_LENGTH), data: null, ...(requestId ? { requestId } : {}) });
}

export function sendNotFound(request: FastifyRequest, reply: FastifyReply) {
  return sendError(reply, ErrorCode.NO_SUCH_ENDPOINT, `${request.method} ${request.url.split('?')[0]?.slice(0, 200)}: no such endpoint`);
}

/** Fastify's `frameworkErrors`: the router's URL refusals before any route, else written as its own JSON. */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const mapped = error.code ? fastifyCodeMap[error.code] : undefined;
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') sendError(reply, ErrorCode.URL_MALFORMED, 'url: a path segment is too long');
  else if (mapped) sendError(reply, mapped.code, mapped.msg);
  else sendError(reply, ErrorCode.URL_MALFORMED, 'url: cannot be routed');
}

/** The one place that turns any failure into the `{code, msg, data}` envelope. */
async function errorHandlerPlugin(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof ApiError) {
      if (error.statusCode >= 500) request.log.error({ err: error }, 'api error');
      return sendError(reply, error.code, error.message, error.statusCode >= 500 ? request.id : undefined);
    }
    // The contract's zod issues too.
    if (error.validation) {
      return sendError(reply, ErrorCode.VALIDATION, describeValidationErrors(error.validationContext, error.validation));
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response did not match its schema');
      return sendError(reply, ErrorCode.INTERNAL, `Internal error; quote request id ${request.id}`, request.id);
    }
    const mapped = error.code ? fastifyCodeMap[error.code] : undefined;
    if (mapped) return sendError(reply, mapped.code, mapped.msg);
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      request.log.info({ err: error }, 'client error');
      return sendError(reply, codeForStatus(error.statusCode), error.message || 'request: invalid');
    }
    const unavailable = (why: string, retryAfterSeconds: number) => {
      reply.header('retry-after', String(retryAfterSeconds));
      return sendError(reply, ErrorCode.UNAVAILABLE, `${why}; retry in ${retryAfterSeconds} s`, request.id);
    };
    if (isDatabaseBusy(error)) {
      // Load shedding, not a fault: no stack.
      request.log.warn({ route: request.routeOptions.url }, 'shed: no database connection became free in time');
      return unavailable('The server is busy (every database connection is in use)', BUSY_RETRY_AFTER_S);
    }
    const passing = transientDatabaseFailure(error);
    if (passing) {
      // Nothing to fix here: a retry shortly succeeds.
      request.log.warn({ route: request.routeOptions.url, err: error }, `database unavailable: ${passing}`);
      return unavailable(`The database is briefly unavailable (${passing})`, TRANSIENT_RETRY_AFTER_S);
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, ErrorCode.INTERNAL, `Internal error; quote request id ${request.id}`, request.id);
  });
}

export default fp(errorHandlerPlugin, { name: 'error-handler' });
