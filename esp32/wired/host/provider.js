/*
 * embedded:provider/builtin of the wired ESP32 boards and the emulated one (the SDK's ECMA-419 manifests map it for every
 * ESP32 subplatform). The module reaches its pins through config.board (hal/device), not through this;
 * it names the ECMA-419 classes only. The Ethernet's RMII and SMI pins (GPIO 0, 16-19, 21-27 on a
 * WT32-ETH01 or an Olimex ESP32-POE) belong to the wired link.
 */
import Analog from "embedded:io/analog";
import Digital from "embedded:io/digital";
import PWM from "embedded:io/pwm";
import Serial from "embedded:io/serial";

const device = {
	io: { Analog, Digital, PWM, Serial },
	pin: {}
};

export default device;
