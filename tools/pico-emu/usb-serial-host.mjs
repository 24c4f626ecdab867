// The USB host on the board's serial port: rp2040js's USBCDC, except that an OUT buffer the firmware
// arms stays armed until the host has bytes for it, as on a real host. rp2040js's USBCDC answers every
// armed OUT buffer at once, with zero bytes when it has none; TinyUSB's CDC class (cdc_device.c) then
// completes a transfer, arms the buffer again and is answered again, an interrupt loop that took 47 %
// of the emulated core's cycles, busy or idle. A real host (and the RP2040's USB controller, which NAKs
// an OUT token while nothing is sent) interrupts the core only when a packet carries data.

export function usbSerialHost(rp2040js, usbCtrl) {
  const cdc = new rp2040js.USBCDC(usbCtrl);
  const answer = usbCtrl.onEndpointRead; // USBCDC's: hands over what its FIFO holds, even nothing
  let waiting = null; // the armed OUT buffer (its endpoint and length) no byte has come for yet
  usbCtrl.onEndpointRead = (endpoint, size) => {
    if (endpoint === cdc.outEndpoint && cdc.txFIFO.itemCount === 0) waiting = { endpoint, size };
    else answer(endpoint, size);
  };
  const push = cdc.sendSerialByte.bind(cdc);
  cdc.sendSerialByte = (byte) => {
    push(byte);
    if (waiting) {
      const { endpoint, size } = waiting;
      waiting = null;
      answer(endpoint, size);
    }
  };
  return cdc;
}
