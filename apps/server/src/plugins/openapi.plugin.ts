import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { ErrorCode, HEADER_TOKEN } from '@broker/contract';

const errorCodeTable = Object.entries(ErrorCode)
  .map(([name, code]) => `| \`${code}\` | ${name} |`)
  .join('\n');

/** OpenAPI 3.1 generated from the contract's zod schemas, with an interactive viewer at /api/docs. */
async function openApiPlugin(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Broker Assistant API',
        version: '1.2.0',
        description: `Every response is \`{code, msg, data}\`; \`code === "0"\` is success.\n\n| code | meaning |\n|---|---|\n${errorCodeTable}`,
      },
      components: {
        securitySchemes: {
          brokerToken: { type: 'apiKey', in: 'header', name: HEADER_TOKEN },
          // ADR 0012: a token counts only together with the cookie of the browser it was issued to.
          browserBinding: {
            type: 'apiKey',
            in: 'cookie',
            name: 'broker_binding',
            description: 'Set by loginQywx (HttpOnly, SameSite=Strict); `__Host-broker_binding` over HTTPS',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });
}

export default fp(openApiPlugin, { name: 'openapi' });
