// The BrainStem error enumeration (DECISIONS.md §Responses) and its HTTP status mapping.
// Handlers throw ApiError; the envelope writer turns it into {error, message} with the status below.

import { deepFreeze } from '../../src/util/freeze';

export const ERROR_NAMES: readonly string[] = deepFreeze([
  'aErrNone', 'aErrMemory', 'aErrParam', 'aErrNotFound', 'aErrFileNameLength', 'aErrBusy', 'aErrIO',
  'aErrMode', 'aErrWrite', 'aErrRead', 'aErrEOF', 'aErrNotReady', 'aErrPermission', 'aErrRange', 'aErrSize',
  'aErrOverrun', 'aErrParse', 'aErrConfiguration', 'aErrTimeout', 'aErrInitialization', 'aErrVersion',
  'aErrUnimplemented', 'aErrDuplicate', 'aErrCancel', 'aErrPacket', 'aErrConnection', 'aErrIndexRange',
  'aErrShortCommand', 'aErrInvalidEntity', 'aErrInvalidOption', 'aErrResource', 'aErrMedia',
  'aErrAsyncReturn', 'aErrStreamStale', 'aErrUnknown',
]);

export const aErrNone = 0;
export const aErrMemory = 1;
export const aErrParam = 2;
export const aErrNotFound = 3;
export const aErrBusy = 5;
export const aErrIO = 6;
export const aErrMode = 7;
export const aErrNotReady = 11;
export const aErrPermission = 12;
export const aErrRange = 13;
export const aErrSize = 14;
export const aErrParse = 16;
export const aErrConfiguration = 17;
export const aErrTimeout = 18;
export const aErrVersion = 20;
export const aErrUnimplemented = 21;
export const aErrDuplicate = 22;
export const aErrConnection = 25;
export const aErrIndexRange = 26;
export const aErrShortCommand = 27;
export const aErrInvalidEntity = 28;
export const aErrInvalidOption = 29;
export const aErrResource = 30;
export const aErrUnknown = 34;

/** A failed request: an error code and a message that names the value and what was allowed. */
export class ApiError {
  readonly code: number;
  readonly message: string;
  /** HTTP status when it is not the code's usual one (405, 413...); 0 = use statusOf(code). */
  readonly status: number;
  constructor(code: number, message: string, status = 0) {
    this.code = code;
    this.message = message;
    this.status = status;
  }
}
Object.freeze(ApiError.prototype);

export function errorName(code: number): string {
  return ERROR_NAMES[code] ?? 'aErrUnknown';
}

/** DECISIONS.md: the HTTP status for each error code. */
export function statusOf(code: number): number {
  switch (code) {
    case aErrNone: return 200;
    case aErrParam: case aErrRange: case aErrParse: case aErrSize: case aErrShortCommand: return 400;
    case aErrPermission: return 403;
    case aErrNotFound: case aErrInvalidEntity: case aErrIndexRange: case aErrInvalidOption: return 404;
    case aErrMode: case aErrConfiguration: case aErrDuplicate: return 409;
    case aErrUnimplemented: return 501;
    case aErrBusy: case aErrNotReady: case aErrResource: case aErrMemory: return 503;
    case aErrTimeout: return 504;
    case aErrConnection: return 502;
    default: return 500;
  }
}
