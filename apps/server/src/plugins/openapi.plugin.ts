import fp from 'fastify-plugin';
import type { FastifyInstance, FastifySchema } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import {
  commonErrorCodesOf,
  ErrorCode,
  SESSION_ENDED_CODES,
  errorCodesOf,
  HEADER_TOKEN,
  httpStatusOf,
  type Endpoint,
  type ErrorCodeValue,
} from '@broker/contract';

const errorCodeTable = Object.entries(ErrorCode)
  .map(([name, code]) => `| \`${code}\` | ${name} |`)
  .join('\n');

const nameOf = new Map(Object.entries(ErrorCode).map(([name, code]) => [code as string, name]));
const describeCodes = (codes: readonly ErrorCodeValue[]) => codes.map((code) => `\`${code}\` ${nameOf.get(code)}`).join(', ');

/** `x-error-codes`, and the endpoint's own codes of each class in the 4xx and 5xx descriptions (ADR 0022). */
function documentErrorCodes(schema: FastifySchema, endpoint: Endpoint): FastifySchema & { 'x-error-codes': readonly ErrorCodeValue[] } {
  const response = (schema.response ?? {}) as Record<string, Record<string, unknown>>;
  const describe = (range: '4xx' | '5xx', low: number) => {
    const own = endpoint.errors.filter((code) => Math.floor(httpStatusOf[code] / 100) * 100 === low);
    const also = `also any ${endpoint.auth ? 'authenticated ' : ''}endpoint's codes (x-error-codes lists them all)`;
    return own.length > 0 ? `Error envelope. This endpoint's own codes: ${describeCodes(own)}; ${also}.` : `Error envelope: ${also}.`;
  };
  return {
    ...schema,
    'x-error-codes': errorCodesOf(endpoint),
    response: {
      ...response,
      '4xx': { ...response['4xx'], description: describe('4xx', 400) },
      '5xx': { ...response['5xx'], description: describe('5xx', 500) },
    },
  };
}

/** OpenAPI 3.1 from the contract's zod schemas, viewed at /api/docs. */
async function openApiPlugin(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Broker Assistant API',
        version: '1.2.0',
        description: [
          'Every response is `{code, msg, data}`; `code === "0"` is success.',
          `Each operation lists in \`x-error-codes\` every code it can answer. Any endpoint can answer ${describeCodes(commonErrorCodesOf({ auth: false }))}; one that needs a session also ${describeCodes(SESSION_ENDED_CODES)}. Its own codes are named in its 4xx and 5xx responses.`,
          `| code | meaning |\n|---|---|\n${errorCodeTable}`,
        ].join('\n\n'),
      },
      components: {
        securitySchemes: {
          brokerToken: { type: 'apiKey', in: 'header', name: HEADER_TOKEN },
          // ADR 0012: a token counts only with its browser's cookie.
          browserBinding: {
            type: 'apiKey',
            in: 'cookie',
            name: 'broker_binding',
            description: 'Set by loginQywx (HttpOnly, SameSite=Strict); `__Host-broker_binding` over HTTPS',
          },
        },
      },
    },
    transform: (input) => {
      const transformed = jsonSchemaTransform(input);
      const endpoint = input.route.config?.endpoint;
      return endpoint ? { ...transformed, schema: documentErrorCodes(transformed.schema, endpoint) } : transformed;
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });
}

export default fp(openApiPlugin, { name: 'openapi' });
