// The measuring build's entry (budget/measure/manifest.json, a debug build): the app, and a garbage
// collection every 10 ms, so that each once-a-second "instruments:" line of the debug build shows the
// live heap and at most 10 ms of garbage.
import Timer from "timer";
import Debug from "debug";
import "src/device/main";

Timer.repeat(() => Debug.gc(), 10);
