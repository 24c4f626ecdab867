// /api/v1/device[/{serial}]/firmware (docs/firmware.md): GET tells what runs (version, build, slot,
// confirmed or on trial, what a rollback returns to); PUT takes a new image as its body, streamed
// through an Upload (a RequestBodySink: the HTTP core hands it the bytes as they arrive, never the
// whole image) into the module's FirmwareHal, its SHA-256 checked against Content-Digest. A good
// image answers 202 with its version and the module restarts into it once the answer is sent; any
// failure leaves the running firmware the one that boots. One image at a time per module (aErrBusy).

import { ApiError, aErrBusy, aErrInvalidOption, aErrParam, aErrUnimplemented, aErrUnknown } from '../../../hal/kit/errors';
import { sameDigest, sha256OfDigest, versionText } from './firmware-image';
import { lookup } from '../route/resolve';
import { ADDRESS_DEVICE, ADDRESS_DEVICES } from '../route/parse-path';
import { FIRMWARE_SEGMENT } from '../access/doors';
import type { FirmwareHal, FirmwareWriter, ModuleHal, Sha256 } from '../../../hal/types';
import type { HttpRequest, RequestBodySink } from '../../http/request';

/** The most a refused image's body is read and dropped (a refusal is answered once its body has come). */
export const REFUSED_BODY_MAX = 4 * 1024 * 1024;

/** The module a firmware path names, or why none. */
export function firmwareDevice(path: string, devices: readonly ModuleHal[]): ModuleHal | ApiError {
  const match = lookup(path.slice(0, -FIRMWARE_SEGMENT.length), devices);
  if (match instanceof ApiError) return match;
  const kind = match.address.kind;
  if (kind !== ADDRESS_DEVICE && kind !== ADDRESS_DEVICES) {
    return new ApiError(aErrInvalidOption, `no firmware at ${path}; use /api/v1/device/{serial}/firmware`);
  }
  if (kind === ADDRESS_DEVICES && devices.length !== 1) {
    return new ApiError(aErrParam, `this server reaches ${devices.length} devices: use /api/v1/device/{serial}/firmware`);
  }
  return match.device ?? devices[0];
}

function asApiError(e: unknown): ApiError {
  return e instanceof ApiError ? e : new ApiError(aErrUnknown, 'firmware write failed: ' + (e instanceof Error ? e.message : String(e)));
}

/** One image's body on its way into a module (or, refused, read and dropped). */
export class Upload implements RequestBodySink {
  readonly limit: number;
  /** The module it is for (null when the path named none). */
  readonly device: ModuleHal | null;
  /** The first refusal or failure; the rest of the body is dropped. */
  error: ApiError | null;
  /** Header lines its refusal answers with (WWW-Authenticate, Retry-After). */
  headers = '';
  private readonly owner: FirmwareUploads;
  private writer: FirmwareWriter | null = null;
  private hash: Sha256 | null = null;
  private readonly expected: Uint8Array | null;
  private readonly length: number;
  private received = 0;

  constructor(owner: FirmwareUploads, device: ModuleHal | null, length: number, expected: Uint8Array | null, error: ApiError | null) {
    this.owner = owner;
    this.device = device;
    this.length = length;
    this.expected = expected;
    this.error = error;
    const fw = device ? device.firmware : undefined;
    if (!error && fw) {
      try {
        this.writer = fw.begin(length);
        this.hash = fw.sha256();
      } catch (e) {
        this.fail(asApiError(e));
      }
    }
    // An image larger than the slot is 413 before a byte is read; a refusal reads what comes, and drops it.
    this.limit = fw && !this.error ? fw.capacity : REFUSED_BODY_MAX;
  }

  write(data: Uint8Array, start: number, end: number): void {
    this.received += end - start;
    if (this.error) return;
    const bytes = data.subarray(start, end);
    try {
      this.hash!.write(bytes);
      this.writer!.write(bytes);
    } catch (e) {
      this.fail(asApiError(e));
    }
  }

  abort(): void {
    this.fail(new ApiError(aErrParam, `the image was cut short: ${this.received} of ${this.length} bytes came`));
  }

  /** The whole body has come: the image's packed version, or why it is refused (the old firmware stays). */
  finish(): number | ApiError {
    if (this.error) return this.error;
    const digest = this.hash!.close();
    if (!sameDigest(digest, this.expected!)) {
      this.fail(new ApiError(aErrParam, 'the image does not match its Content-Digest (sha-256): it changed on the way, or the digest is of another file'));
      return this.error!;
    }
    try {
      const version = this.writer!.complete();
      this.owner.release(this);
      return version;
    } catch (e) {
      this.fail(asApiError(e));
      return this.error!;
    }
  }

  /** After the 202 is sent: into the new image. */
  restart(): void {
    if (this.writer) this.writer.restart();
  }

  private fail(e: ApiError): void {
    if (!this.error) this.error = e;
    const writer = this.writer;
    this.writer = null;
    if (writer) writer.abort();
    this.owner.release(this);
  }
}
Object.freeze(Upload.prototype);

/** The uploads of one Api: at most one per module at a time. */
export class FirmwareUploads {
  private readonly busy: Upload[] = [];

  /** A sink for a firmware PUT whose head has come (access already decided: `refusal`, or null). */
  open(req: HttpRequest, device: ModuleHal | ApiError, length: number, refusal: ApiError | null): Upload {
    if (device instanceof ApiError) return new Upload(this, null, length, null, device);
    let error = refusal;
    if (!error && !device.firmware) error = new ApiError(aErrUnimplemented, 'this module cannot update its firmware');
    const expected = error ? null : sha256OfDigest(req.contentDigest ?? '');
    if (expected instanceof ApiError) error = expected;
    if (!error && this.uploading(device)) {
      error = new ApiError(aErrBusy, 'an update of this module is already under way; try again once it has answered');
    }
    const upload = new Upload(this, device, length, error ? null : expected as Uint8Array, error);
    if (!upload.error) this.busy.push(upload);
    return upload;
  }

  release(upload: Upload): void {
    const at = this.busy.indexOf(upload);
    if (at >= 0) this.busy.splice(at, 1);
  }

  private uploading(device: ModuleHal): boolean {
    for (let i = 0; i < this.busy.length; i++) if (this.busy[i].device === device) return true;
    return false;
  }
}
Object.freeze(FirmwareUploads.prototype);

/** GET …/firmware: the `response` object. */
export function firmwareStatusJson(fw: FirmwareHal | undefined): string | ApiError {
  if (!fw) return new ApiError(aErrUnimplemented, 'this module cannot tell or update its firmware');
  const s = fw.status();
  return '{"version":"' + versionText(s.version) + '","rawVersion":' + s.version + ',"build":"0x' +
    ('0000000' + s.build.toString(16)).slice(-8) + '","slot":' + JSON.stringify(s.slot) + ',"confirmed":' + s.confirmed +
    ',"rollback":' + (s.rollback < 0 ? 'null' : '"' + versionText(s.rollback) + '"') + '}';
}

/** PUT …/firmware accepted: the `response` object of the 202. */
export function acceptedJson(version: number): string {
  return '{"version":"' + versionText(version) + '","rawVersion":' + version + ',"restarting":true}';
}
