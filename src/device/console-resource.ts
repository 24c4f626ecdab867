// The device build's console page: resources/console.html.gz (tools/build-console.mjs), the one stored
// copy of the page, linked into the firmware as a Moddable resource. `new Resource` maps it from flash,
// so GET / holds no copy of the page in RAM (7 KB of a module's 32 KB of chunks at once would be too
// much). A firmware without the resource has no page: the Api answers GET / with a 404.
import Resource from 'Resource';

export const CONSOLE_RESOURCE = 'console.html.gz';

export function deviceConsolePage(): Uint8Array | undefined {
  if (!Resource.exists(CONSOLE_RESOURCE)) return undefined;
  return new Uint8Array(new Resource(CONSOLE_RESOURCE));
}
