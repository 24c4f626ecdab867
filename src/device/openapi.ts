// The device build's OpenAPI document: resources/openapi-device.json.gz (make gen), linked into the
// firmware as a Moddable resource. `new Resource` maps it from flash: the bytes are never copied to
// RAM, and no uncompressed copy exists (a client that refuses gzip gets 406).
import Resource from 'Resource';
import type { OpenApiSource } from '../api/access/site';

export const OPENAPI_RESOURCE = 'openapi-device.json.gz';

export function deviceOpenApi(): OpenApiSource | undefined {
  if (!Resource.exists(OPENAPI_RESOURCE)) return undefined;
  return { gzip: new Uint8Array(new Resource(OPENAPI_RESOURCE)) };
}
