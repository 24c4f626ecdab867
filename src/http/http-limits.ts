// Limits of docs/api.md §HTTP limits. Request buffers grow towards these only while a request needs it.

/** Longest request line, CRLF excluded (414 beyond). */
export const REQUEST_LINE_MAX = 1024;
/** Longest header block after the request line, CRLFs included (431 beyond). */
export const HEADER_BLOCK_MAX = 4096;
/** The longest head: request line, header block and their CRLFs (the head buffer's ceiling). */
export const HEAD_MAX = REQUEST_LINE_MAX + 2 + HEADER_BLOCK_MAX;
/** Most header fields (431 beyond). */
export const HEADER_FIELDS_MAX = 32;
/** Largest request body, after de-chunking (413 beyond). */
export const BODY_MAX = 4096;
/** Longest chunk-extension text on one chunk-size line (400 beyond). */
export const CHUNK_EXT_MAX = 256;
/** The whole head must arrive within this many ms of its first byte (408). */
export const HEADER_TIMEOUT_MS = 10000;
/** The whole body must arrive within this many ms of the end of its head (408). */
export const BODY_TIMEOUT_MS = 10000;
/** A keep-alive connection with no request under way is closed after this many ms of silence. */
export const IDLE_TIMEOUT_MS = 30000;
