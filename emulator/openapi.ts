// `GET /openapi.public.json`: an OpenAPI 3.1 description of exactly the routes
// this emulator serves, built from the routes as they are registered, with
// `info.version` the contract date.
import type { FastifyInstance } from 'fastify';
import { KNOWN_SCOPES } from './identity/identity-store';

export const CONTRACT_DATE = '2026-09-25';

interface RouteInfo {
  method: string;
  url: string;
  scope: string | null | undefined;
  operationId: string | undefined;
  deprecated: boolean;
}

const routesByApp = new WeakMap<FastifyInstance, RouteInfo[]>();

/** Starts recording routes; call before any route is added. */
export function collectRoutes(app: FastifyInstance): void {
  const routes: RouteInfo[] = [];
  routesByApp.set(app, routes);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const config = (route.config ?? {}) as {
      scope?: string | null;
      operationId?: string;
      deprecated?: boolean;
    };
    for (const method of methods) {
      if (method === 'HEAD' || route.url.startsWith('/_emulator') || route.url === '/openapi.public.json')
        continue;
      routes.push({
        method: method.toLowerCase(),
        url: route.url,
        scope: config.scope,
        operationId: config.operationId,
        deprecated: config.deprecated === true,
      });
    }
  });
}

function problemResponse(description: string) {
  return {
    description,
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
  };
}

export function openApiDocument(app: FastifyInstance): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routesByApp.get(app) ?? []) {
    const path = route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const parameters = [...route.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    const bearer = route.url.startsWith('/v1/') && route.url !== '/v1/health';
    const success = route.method === 'delete' ? '2XX' : route.method === 'post' ? '201' : '200';
    const operation: Record<string, unknown> = {
      operationId: route.operationId ?? `${route.method}${route.url.replace(/[^A-Za-z0-9]+/g, '_')}`,
      ...(route.deprecated ? { deprecated: true } : {}),
      ...(parameters.length > 0 ? { parameters } : {}),
      security: bearer ? [{ ServiceToken: [] }, { OAuth2: route.scope ? [route.scope] : [] }] : [],
      ...(route.scope !== undefined ? { 'x-required-scope': route.scope } : {}),
      responses: {
        [success]: {
          description: 'Success',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
        ...(route.method === 'get' ? { '304': { description: 'Not modified (If-None-Match)' } } : {}),
        default: problemResponse('Error (RFC 9457 problem details)'),
      },
    };
    paths[path] ??= {};
    paths[path][route.method] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Work-tracking service API (local emulator)',
      version: CONTRACT_DATE,
      description:
        'The operations this emulator serves, following the service contract of ' + CONTRACT_DATE + '.',
    },
    paths,
    components: {
      securitySchemes: {
        ServiceToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'svc_live_… or svc_test_… access token',
        },
        OAuth2: {
          type: 'oauth2',
          flows: {
            authorizationCode: {
              authorizationUrl: '/oauth/authorize',
              tokenUrl: '/oauth/token',
              refreshUrl: '/oauth/token',
              scopes: Object.fromEntries(KNOWN_SCOPES.map((scope) => [scope, scope])),
            },
          },
        },
      },
      schemas: {
        Problem: {
          type: 'object',
          required: ['type', 'title', 'status', 'detail', 'instance', 'request_id'],
          properties: {
            type: { type: 'string' },
            title: { type: 'string' },
            status: { type: 'integer' },
            detail: {},
            instance: { type: 'string' },
            request_id: { type: 'string' },
            errors: { type: 'array', items: { type: 'object' } },
          },
        },
      },
    },
  };
}

export function registerOpenApiRoute(app: FastifyInstance): void {
  let cached: string | undefined;
  app.get('/openapi.public.json', (_request, reply) => {
    cached ??= JSON.stringify(openApiDocument(app));
    return reply.type('application/json; charset=utf-8').send(cached);
  });
}
