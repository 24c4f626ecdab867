// Device entry (the manifest's creation.main): the module (src/device/app.ts) made and started at boot.
// The entry hands in what must be read at boot rather than at build time, when the app is preloaded:
// the saved settings (on the desktop host `preference` reads its saved file as it loads) and why the
// chip started (read before the watchdog starts: on the Pico, starting it changes what the chip reports).
// `app` is exported so that other users of the network can watch it too (app.network.watch).

import Preference from 'preference';
import Watchdog from 'watchdog';
import { App } from './app';

export const app = new App({ preferences: Preference, restartCause: Watchdog.cause(), image: Watchdog.image() });
app.start();
