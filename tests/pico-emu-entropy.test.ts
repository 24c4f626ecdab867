// The secret of the Digest nonces from the chip's entropy (native/entropy/entropy-pico.c) on the
// emulated Pico W: two boots of the same image from the same flash (the same boot count, the same
// saved settings) issue different nonces at the same moment of their clocks. The secret was made from
// Math.random, which is newlib's rand() never seeded on this chip, and the boot count: both boots then
// issued the same nonce. The emulator's ring oscillator gives a random bit per read, as the chip's
// does (tools/pico-emu/chip-reset.mjs). Needs an image built with a token (PICO_TOKEN_IMAGE: make
// device PLATFORM=pico/pico_w MCCONFIG_ARGS="ssid=lab password=secret token=lab-secret"); skips
// without it, and with the reason the emulated board cannot run.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { clientResult, missing, runBoard } from './pico-emu-run';

const REAL_SECONDS = 400;
const IMAGE = process.env.PICO_TOKEN_IMAGE ?? '';

interface Seen { served: boolean; status: number; nonce: string }

describe('Pico W image on an emulated board: the Digest secret from the chip', function () {
  const why = !IMAGE ? 'no image built with a token (PICO_TOKEN_IMAGE)' : !fs.existsSync(IMAGE) ? `no image at ${IMAGE}` : missing();
  before(function () {
    if (why) this.skip();
  });

  it(`issues other nonces after a boot from the same flash${why ? ` (skipped: ${why})` : ''}`, async function () {
    this.timeout(2 * (REAL_SECONDS + 90) * 1000);
    const boot = async (): Promise<Seen> => {
      const out = await runBoard({ seconds: REAL_SECONDS, client: 'nonce-client.js', image: IMAGE, env: { PICO_EMU_CURL: '0' } });
      const seen = clientResult<Seen>(out);
      assert.ok(seen && seen.served && seen.status === 401, out.slice(-3000));
      assert.match(seen.nonce, /^[0-9a-f]{48}$/, out.slice(-3000));
      return seen;
    };
    const [a, b] = [await boot(), await boot()];
    // The first 16 hex digits are the stamp (the second of the board's clock and the issue number),
    // the same in both boots or nearly; the seal after them is the secret's.
    assert.notEqual(a.nonce.slice(16), b.nonce.slice(16), `both boots sealed with one secret: ${a.nonce} ${b.nonce}`);
  });
});
