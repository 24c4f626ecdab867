// The measuring build's entry (budget/measure/manifest.json, a debug build): the app, and a garbage
// collection every 10 ms, so that each once-a-second "instruments:" line of the debug build shows the
// live heap and at most 10 ms of garbage. After each collection it reads the live slots and chunk
// bytes (Moddable's instrumentation module) and traces the largest of each second as
// "live peak: S slots, C chunk bytes (N sockets, T timers)": the live heap at its fullest, garbage
// left out, with the sockets and timers open at that moment.
import Timer from "timer";
import Debug from "debug";
import Instrumentation from "instrumentation";
import "src/device/main";

const SLOTS = Instrumentation.map("XS Slot Heap Used");
const CHUNKS = Instrumentation.map("XS Chunk Heap Used");
const SOCKETS = Instrumentation.map("Network Sockets");
const TIMERS = Instrumentation.map("Timers");
const SLOT_BYTES = 32; // a slot on the desktop host (64-bit)
let slots = 0, chunks = 0, sockets = 0, timers = 0, ticks = 0;

Timer.repeat(() => {
	Debug.gc();
	const s = Instrumentation.get(SLOTS), c = Instrumentation.get(CHUNKS);
	if (s > slots) {
		slots = s;
		sockets = Instrumentation.get(SOCKETS);
		timers = Instrumentation.get(TIMERS);
	}
	if (c > chunks) chunks = c;
	if (++ticks < 100) return;
	trace(`live peak: ${slots / SLOT_BYTES} slots, ${chunks} chunk bytes (${sockets} sockets, ${timers} timers)\n`);
	slots = chunks = ticks = 0;
}, 10);
