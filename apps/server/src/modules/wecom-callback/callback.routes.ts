import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ErrorCode,
  errorEnvelopeSchema,
  WECOM_CALLBACK_PATH,
  wecomCallbackEnvelopeSchema,
  wecomCallbackEventSchema,
  wecomCallbackParamsSchema,
  wecomCallbackQuerySchema,
} from '@broker/contract';
import { ApiError } from '../../http/api-error';
import { openCallback, parseCallbackXml, requireNow } from './callback-crypto';
import { createContactChangeService } from './contact-change.service';

/** WeCom's callbacks are a few hundred bytes. */
const CALLBACK_BODY_LIMIT = 64 * 1024;

const errorResponses = { '4xx': errorEnvelopeSchema, '5xx': errorEnvelopeSchema };

const firstIssue = (error: { issues: { path: PropertyKey[]; message: string }[] }, field: string) => {
  const issue = error.issues[0];
  return ApiError.validation(issue?.path.length ? `${field}.${issue.path.map(String).join('.')}` : field, issue?.message ?? 'is invalid');
};

/**
 * GET answers the admin console's URL check with the echostr; POST takes change_external_contact events (ADR
 * 0019). Its credentials are the callback Token and EncodingAESKey, not a session.
 */
export async function wecomCallbackRoutes(app: FastifyInstance) {
  const contactChanges = createContactChangeService({ db: app.database.db, log: app.log });
  // This scope reads bodies as text, whatever type WeCom labels them with.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: CALLBACK_BODY_LIMIT }, (_request, body, done) => done(null, body));

  const settingsOf = (request: FastifyRequest) => {
    const { corpCode } = request.params as { corpCode: string };
    const corp = app.corps.byCode(corpCode);
    if (!corp?.callback) {
      throw new ApiError(
        ErrorCode.WECOM_CALLBACK_NOT_CONFIGURED,
        `corpCode: no corp "${corpCode}" with a callback Token and EncodingAESKey`,
      );
    }
    return { corp, settings: corp.callback };
  };

  const routes = app.withTypeProvider<ZodTypeProvider>();
  const callbackSchema = {
    tags: ['wecom'],
    params: wecomCallbackParamsSchema,
    querystring: wecomCallbackQuerySchema,
    response: errorResponses,
  };
  routes.get(
    WECOM_CALLBACK_PATH,
    {
      schema: {
        summary: 'WeCom callback URL check: answers the decrypted echostr as plain text (ADR 0019)',
        ...callbackSchema,
      },
    },
    async (request, reply) => {
      const { corp, settings } = settingsOf(request);
      if (!request.query.echostr) throw ApiError.validation('echostr', 'is required for the URL check');
      const plaintext = openCallback(settings, corp.corpId, request.query, request.query.echostr);
      request.log.info({ corp: corp.code }, 'WeCom callback URL verified');
      // Exactly the plaintext: WeCom compares it byte for byte.
      return reply.type('text/plain; charset=utf-8').send(plaintext as never);
    },
  );

  routes.post(
    WECOM_CALLBACK_PATH,
    {
      bodyLimit: CALLBACK_BODY_LIMIT,
      schema: {
        summary: 'WeCom callback events (change_external_contact): XML with an encrypted event; answers `success` as plain text (ADR 0019)',
        ...callbackSchema,
      },
    },
    async (request, reply) => {
      const { corp, settings } = settingsOf(request);
      const body = typeof request.body === 'string' ? request.body : '';
      const envelope = wecomCallbackEnvelopeSchema.safeParse(parseCallbackXml(body, 'body'));
      if (!envelope.success) throw firstIssue(envelope.error, 'body');
      const plaintext = openCallback(settings, corp.corpId, request.query, envelope.data.Encrypt);
      const event = wecomCallbackEventSchema.safeParse(parseCallbackXml(plaintext, 'Encrypt'));
      if (!event.success) throw firstIssue(event.error, 'Encrypt');
      requireNow('Encrypt.CreateTime', event.data.CreateTime);
      await contactChanges.handle(corp, event.data);
      return reply.type('text/plain; charset=utf-8').send('success' as never);
    },
  );
}
