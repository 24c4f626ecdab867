// The anchor of make pico-emu-figures: the Moddable SDK's own http Server (./value-server.js) on port
// 80, and the same answers from lwIP's raw API in C with no JavaScript (floor.c) on port 81.
// Built for pico/pico_w by make pico-anchor; setup/network joins the Wi-Fi before this runs.
import { startValueServer, VALUE_BYTES } from 'value-server';
import { startFloor } from 'floor';

startValueServer(80);
startFloor(81, VALUE_BYTES);
trace(`anchor: SDK http Server on port 80, lwIP raw floor on port 81\n`);
