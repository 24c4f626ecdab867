// The API's answers that name no operation (docs/api.md §What a module has and accepts): GET /api/v1
// (links), GET /api/v1/openapi.json, GET /api/v1/device (the devices), GET /api/v1/device/{serial} (what
// one module has, streamed) and GET /metrics (the modules' measurements, streamed). Methods and access
// are checked at their doors first (src/api/access/doors.ts, Api.answer).

import { ApiError, aErrNotFound } from '../../../hal/kit/errors';
import { ADDRESS_DEVICES } from '../route/parse-path';
import { DescriptionStream, identity } from './describe';
import { METRICS_CONTENT_TYPE, MetricsStream } from './metrics';
import { answerOpenApi, INDEX_RESPONSE, OPENAPI_PATH, type OpenApiSource } from '../access/site';
import { envelope, type TimestampClock } from '../values/envelope';
import type { Target } from '../route/resolve';
import type { AccessControl } from '../access/access';
import type { HttpRequest, HttpResponse } from '../../http/request';
import type { ModuleHal } from '../../../hal/types';

/** OPTIONS: 204 with Allow (and the CORS preflight headers). */
export function preflight(req: HttpRequest, allow: string, access: AccessControl, res: HttpResponse): null {
  res.status = 204;
  res.allow = allow;
  res.extraHeaders = access.preflightHeaders(req, allow);
  return null;
}

/** GET /api/v1 (links) and GET /api/v1/openapi.json (the stored document, absent: 404). */
export function answerSite(req: HttpRequest, path: string, parameters: string, openapi: OpenApiSource | null,
  timestamp: string, res: HttpResponse): ApiError | null {
  if (path !== OPENAPI_PATH) {
    res.body = envelope(timestamp, path, parameters, INDEX_RESPONSE);
  } else if (!openapi) {
    return new ApiError(aErrNotFound, 'this server was started without its OpenAPI document');
  } else {
    answerOpenApi(openapi, req.acceptEncoding, res);
  }
  return null;
}

/**
 * GET /api/v1/device (the devices) and GET /api/v1/device/{serial} (what one module has: never built
 * whole, but streamed one entity at a time inside the envelope's head and tail).
 */
export function answerListing(t: Target, path: string, devices: readonly ModuleHal[],
  clock: TimestampClock, res: HttpResponse): ApiError | null {
  const timestamp = clock.format((t.device ?? devices[0]).now());
  if (t.address.kind === ADDRESS_DEVICES) {
    const list: string[] = [];
    for (const d of devices) list.push(identity(d));
    res.body = envelope(timestamp, path, '{}', '[' + list.join(',') + ']');
    return null;
  }
  // The envelope of an empty response, cut before its closing brace, is the stream's head.
  const head = envelope(timestamp, path, '{}', '');
  res.stream = new DescriptionStream(t.device!, head.slice(0, -1), '}');
  res.streamEnds = true;
  return null;
}

/**
 * GET /metrics: every module's measurements, streamed (src/api/resources/metrics.ts) through the
 * families some module reads (readable-families.ts); a read, as access control sees it.
 */
export function answerMetrics(devices: readonly ModuleHal[], families: string, res: HttpResponse): ApiError | null {
  res.contentType = METRICS_CONTENT_TYPE;
  res.stream = new MetricsStream(devices, families);
  res.streamEnds = true;
  return null;
}
