// The firmware resource in the OpenAPI document (docs/firmware.md): GET …/firmware tells what runs,
// PUT …/firmware takes a new image (application/octet-stream, Content-Digest) and answers 202.
// Build-time code (tools/gen-openapi.mjs).

import { envelope, type Schema } from './schemas';

const VERSION = { type: 'string', pattern: '^[0-9]+\\.[0-9]+\\.[0-9]+$' };

export const FIRMWARE_STATUS: Schema = {
  type: 'object', required: ['version', 'rawVersion', 'build', 'slot', 'confirmed', 'rollback'],
  properties: {
    version: VERSION, rawVersion: { type: 'integer', description: 'packed as system/0/version' },
    build: { type: 'string', pattern: '^0x[0-9a-f]{8}$' },
    slot: { type: 'string', description: 'the partition or slot it runs from (ota_0, ota_1; sim-a, sim-b)' },
    confirmed: { type: 'boolean', description: 'false while a new firmware is on trial: a restart before it serves returns to `rollback`' },
    rollback: { oneOf: [VERSION, { type: 'null' }], description: 'the version a rollback would return to' },
  },
};

export const FIRMWARE_ACCEPTED: Schema = {
  type: 'object', required: ['version', 'rawVersion', 'restarting'],
  properties: { version: VERSION, rawVersion: { type: 'integer' }, restarting: { const: true } },
};

/** The firmware path item; `errors` are the shared error answers. */
export function firmwarePaths(errors: Schema): Schema {
  return {
    '/api/v1/device/{serial}/firmware': {
      parameters: [{ $ref: '#/components/parameters/serial' }],
      get: {
        operationId: 'get_firmware', summary: 'The running firmware: version, build, slot, confirmed or on trial, what a rollback returns to',
        responses: { 200: { description: 'the firmware', content: { 'application/json': { schema: envelope(FIRMWARE_STATUS) } } }, ...errors },
      },
      put: {
        operationId: 'put_firmware', summary: 'Update the firmware: the image as the body, written as it arrives',
        description: 'Needs a token (none set on the module: 403). The image (`make firmware-image` for the simulator; the app ' +
          'binary on an ESP32) goes with Content-Length and `Content-Digest: sha-256=:<base64>:` (RFC 9530). A digest that does not ' +
          'match, a body cut short or an image for another board: 400 aErrParam, the running firmware unchanged. A second update ' +
          'while one is under way: 503 aErrBusy. A board that cannot update (Pico W, desktop host): 501 aErrUnimplemented. With HTTP ' +
          'Digest the credential covers the method and target, not the body: Content-Digest is what binds the image.',
        parameters: [{ name: 'Content-Digest', in: 'header', required: true, schema: { type: 'string', pattern: '^.*sha-256=:[A-Za-z0-9+/]{43}=:.*$' }, example: 'sha-256=:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=:' }],
        requestBody: { required: true, content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } },
        responses: {
          202: { description: 'the image is written; the module restarts into it once this answer is sent', content: { 'application/json': { schema: envelope(FIRMWARE_ACCEPTED) } } },
          411: { description: 'no Content-Length (a chunked body)', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } },
          ...errors,
        },
        security: [{ digest: [] }, { bearer: [] }],
      },
    },
  };
}
